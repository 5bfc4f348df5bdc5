import type { CatalogPrice, GameCatalogEntry } from '../../src/protocol/catalog';
import { numberFormat, type Strings } from './i18n';

/**
 * What a player may win and how likely, from the catalog's prize tables: each a count of units
 * in a block, so the odds are exact ratios and the payout rate an integer of basis points (no
 * floating money anywhere).
 */

/** « 1 sur 3,9 »: one unit in this many, to a tenth. */
export function oneIn(blockSize: number, count: number, s: Strings): string {
  return numberFormat(s.locale, { maximumFractionDigits: 1 }).format(blockSize / count);
}

/** The share of the stakes paid back as prizes, in basis points, rounded half up (integers only). */
export function payoutBasisPoints(price: CatalogPrice): number {
  const stakes = BigInt(price.blockSize) * BigInt(price.stake);
  return Number((BigInt(price.totalPayout) * 20_000n + stakes) / (2n * stakes));
}

/** « 70,00 % »: basis points written as a percentage with two decimals, from integers. */
export function percent(basisPoints: number, s: Strings): string {
  const whole = Math.floor(basisPoints / 100);
  const cents = String(basisPoints % 100).padStart(2, '0');
  return `${whole}${s.decimalSeparator}${cents}\u00a0%`;
}

export function topPrize(game: GameCatalogEntry): number {
  return Math.max(0, ...game.prices.flatMap((p) => p.tiers.map((t) => t.prize)));
}
