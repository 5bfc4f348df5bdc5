import { findPrizeTable } from '../../games/prize-tables';
import { GAME_IDS, type GameId, type PrizeTable } from '../../games/types';
import { isHex } from '../../random/hex';
import type { ProofInput } from './hashing';

/**
 * The untrusted recall (parsed JSON) read into the fields the checks use, or the sentence saying
 * why it cannot be read: the checks after this one never meet a wrong type.
 */

export interface JournalLineRead {
  readonly seq: number;
  readonly kind: string;
  readonly amount: number;
  readonly balance: number;
  readonly ref: string;
  /** ms; NaN when it is not a date. */
  readonly at: number;
}

export interface StepRead {
  readonly seq: unknown;
  readonly at: unknown;
  readonly by: unknown;
  readonly action: unknown;
  readonly events: readonly unknown[];
}

export interface RecallRead {
  readonly format: 'unit-recall/v2' | 'unit-recall/v3';
  readonly unitId: string;
  readonly game: GameId;
  readonly stake: number;
  readonly table: PrizeTable;
  readonly blockId: string;
  readonly position: number;
  readonly soldAt: number;
  /** ms; NaN when it is not a date. */
  readonly finishedAt: number;
  readonly completedBy: unknown;
  readonly purchase: unknown;
  readonly presentation: unknown;
  readonly prize: number;
  readonly balanceBefore: number;
  readonly balanceAfterStake: number;
  readonly balanceAfterPrize: number;
  readonly ledger: readonly JournalLineRead[];
  readonly picks: unknown;
  readonly steps: readonly StepRead[];
  readonly scenario: unknown;
  readonly fairness: {
    readonly scheme: 2 | 3;
    readonly blockId: unknown;
    readonly blockSize: unknown;
    readonly position: unknown;
    readonly commitment: unknown;
    readonly page: unknown;
    readonly pageRoot: unknown;
    readonly pagePublishedAt: unknown;
  };
  readonly proof: ProofInput & { readonly size: number };
}

type Json = Record<string, unknown>;

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
const isCents = (x: unknown): x is number => Number.isSafeInteger(x);
/** An ISO time as ms, NaN when it is not one. */
export const timeOf = (x: unknown): number => (typeof x === 'string' ? Date.parse(x) : Number.NaN);

function journalLine(x: unknown): JournalLineRead | undefined {
  if (!isObject(x) || !isCount(x.seq) || typeof x.kind !== 'string' || !isCents(x.amount) || !isCents(x.balance) || typeof x.ref !== 'string') return undefined;
  return { seq: x.seq, kind: x.kind, amount: x.amount, balance: x.balance, ref: x.ref, at: timeOf(x.at) };
}

/** The proof's fields, typed; its secret is the salt (scheme 2) or the unit seed (scheme 3). */
function proofOf(x: unknown, scheme: 2 | 3): (ProofInput & { size: number }) | string {
  if (!isObject(x)) return 'the recall carries no proof';
  const secret = scheme === 3 ? x.unitSeed : x.salt;
  if (x.scheme !== `merkle-sha256/v${scheme}`) return `the proof's scheme ${String(x.scheme)} is not the block's (merkle-sha256/v${scheme})`;
  if (!isCount(x.size) || x.size < 1 || !isCount(x.position) || !isCount(x.tierId) || x.tierId > 255) return 'the proof\'s size, position or tier is not a small whole number';
  if (!isHex(secret, 32)) return `the proof's ${scheme === 3 ? 'unit seed' : 'salt'} is not 32 bytes of lowercase hex`;
  if (!Array.isArray(x.siblings) || !x.siblings.every((s) => isHex(s, 32))) return 'the proof\'s siblings are not 32-byte hex hashes';
  return { version: scheme, size: x.size, position: x.position, tierId: x.tierId, secret, siblings: x.siblings as string[] };
}

/**
 * The format's label against what the record holds (docs/recall.md): v2 predates scheme 3 and
 * `fairness.server`, v3 always carries `server` (an origin or null). A record that says v2 with
 * a v3 body (or the reverse) contradicts itself, whatever else verifies.
 */
function labelProblem(format: 'unit-recall/v2' | 'unit-recall/v3', f: Json): string | undefined {
  if (format === 'unit-recall/v2') {
    if (f.scheme === 3) return 'the record says unit-recall/v2, which has no scheme 3, but its fairness record is of scheme 3';
    if (Object.hasOwn(f, 'server')) return 'the record says unit-recall/v2, which has no fairness.server, but it carries one';
    return undefined;
  }
  if (f.server !== null && typeof f.server !== 'string') return 'the record says unit-recall/v3, whose fairness record names its server (an origin or null), but it has none';
  return undefined;
}

/** The recall read, or why not (one sentence). */
export function readRecall(input: unknown): RecallRead | string {
  if (!isObject(input)) return 'the recall is not a JSON object';
  const r = input;
  if (r.format !== 'unit-recall/v3' && r.format !== 'unit-recall/v2') return `format ${String(r.format)}: this verifier reads unit-recall/v3 and unit-recall/v2`;
  if (r.status !== 'finished') return 'the unit is not finished: its outcome and proof are shown once its reveal ends';
  const game = r.game;
  if (typeof game !== 'string' || !(GAME_IDS as readonly string[]).includes(game)) return `${String(game)} is not one of the five games`;
  const table = isCents(r.stake) ? findPrizeTable(game as GameId, r.stake) : undefined;
  if (!table) return `${game} is not sold at ${String(r.stake)} cents`;
  if (typeof r.unitId !== 'string' || typeof r.blockId !== 'string' || !isCount(r.position)) return 'the unit id, block id or position is missing';
  const soldAt = timeOf(r.soldAt);
  if (!Number.isFinite(soldAt)) return 'the sale time is not a date';
  if (!isCents(r.prize) || !isCents(r.balanceBefore) || !isCents(r.balanceAfterStake) || !isCents(r.balanceAfterPrize)) return 'the prize or a balance is not a whole number of cents';
  const ledger = Array.isArray(r.ledger) ? r.ledger.map(journalLine) : [undefined];
  if (ledger.some((line) => line === undefined)) return 'the ledger is not a list of journal lines';
  if (!Array.isArray(r.steps) || !r.steps.every((s) => isObject(s) && Array.isArray(s.events))) return 'the steps are not a list of steps with events';
  const f = r.fairness;
  if (!isObject(f)) return 'the recall has no fairness record';
  if (f.scheme !== 2 && f.scheme !== 3) return `scheme ${String(f.scheme)}: no per-unit proof; verify the whole block once it closes (npm run verify-block)`;
  const label = labelProblem(r.format, f);
  if (label) return label;
  const proof = proofOf(f.proof, f.scheme);
  if (typeof proof === 'string') return proof;
  return {
    format: r.format,
    unitId: r.unitId,
    game: game as GameId,
    stake: table.stake,
    table,
    blockId: r.blockId,
    position: r.position,
    soldAt,
    finishedAt: timeOf(r.finishedAt),
    completedBy: r.completedBy,
    purchase: r.purchase,
    presentation: r.presentation,
    prize: r.prize,
    balanceBefore: r.balanceBefore,
    balanceAfterStake: r.balanceAfterStake,
    balanceAfterPrize: r.balanceAfterPrize,
    ledger: ledger as JournalLineRead[],
    picks: r.picks,
    steps: r.steps as StepRead[],
    scenario: r.scenario,
    fairness: { scheme: f.scheme, blockId: f.blockId, blockSize: f.blockSize, position: f.position, commitment: f.commitment, page: f.page, pageRoot: f.pageRoot, pagePublishedAt: f.pagePublishedAt },
    proof,
  };
}
