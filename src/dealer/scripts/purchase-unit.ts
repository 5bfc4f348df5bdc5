import type { RunScript } from './commands';
import { scriptError } from './errors';
import { int, replyList } from './reply';

export interface PurchaseUnitKeys {
  readonly current: string;
  readonly base: string;
  readonly sequenceUnsettled: string;
  readonly wallet: string;
  readonly journal: string;
  readonly playerSales: string;
  readonly playerUnsettled: string;
}

export interface PurchaseUnitArgs {
  readonly playerId: string;
  readonly requestId: string;
  readonly stake: number;
  readonly now: number;
  readonly picks: string;
}

export type PurchaseUnitResult =
  | {
      readonly kind: 'sold';
      readonly emissionId: string;
      readonly index: number;
      readonly position: number;
      readonly tierId: number;
      readonly prize: number;
      readonly balanceBefore: number;
      readonly balanceAfter: number;
      /** The block this purchase opened (the next one to print is after it), or undefined. */
      readonly openedIndex: number | undefined;
    }
  | { readonly kind: 'replayed'; readonly unitId: string };

/**
 * purchaseUnit-7.lua. Throws (through the error factory) `purchase/unknown_game`,
 * `purchase/game_closed`, `purchase/insufficient_funds` (with the balance), or
 * `dealer/next_block_not_printed` (with the emission and index of the block to print).
 */
export async function purchaseUnit(run: RunScript, keys: PurchaseUnitKeys, args: PurchaseUnitArgs): Promise<PurchaseUnitResult> {
  const reply = replyList(
    'purchaseUnit',
    await run(
      'purchaseUnit',
      [keys.current, keys.base, keys.sequenceUnsettled, keys.wallet, keys.journal, keys.playerSales, keys.playerUnsettled],
      [args.playerId, args.requestId, args.stake, args.now, args.picks],
    ),
  );
  const code = int(reply[0]);
  if (code === 2) return { kind: 'replayed', unitId: String(reply[1]) };
  if (code === -4) throw scriptError('purchaseUnit', code, { emissionId: String(reply[1]), index: int(reply[2]) });
  if (code === -3) throw scriptError('purchaseUnit', code, { balance: int(reply[1]) });
  if (code !== 1) throw scriptError('purchaseUnit', code);
  const opened = int(reply[8]);
  return {
    kind: 'sold',
    emissionId: String(reply[1]),
    index: int(reply[2]),
    position: int(reply[3]),
    tierId: int(reply[4]),
    prize: int(reply[5]),
    balanceBefore: int(reply[6]),
    balanceAfter: int(reply[7]),
    openedIndex: opened >= 0 ? opened : undefined,
  };
}
