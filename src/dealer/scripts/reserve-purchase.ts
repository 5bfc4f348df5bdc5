import type { DealerRunScript } from './commands';
import { scriptError, type ProtectionReply } from '../../redis-scripts/errors';
import { protectionReply } from '../../protection/refusal-reply';
import { int, replyList } from '../../redis-scripts/reply';

export interface PlayerPurchaseKeys {
  readonly wallet: string;
  readonly pending: string;
}

export type ReserveResult =
  | { readonly kind: 'held'; readonly balanceBefore: number }
  | { readonly kind: 'sold'; readonly unitId: string }
  /** Pending from an earlier call: deal it with what was recorded then. */
  | { readonly kind: 'pending'; readonly balanceBefore: number; readonly now: number; readonly picks: string }
  | { readonly kind: 'insufficient_funds'; readonly available: number }
  | { readonly kind: 'unfinished_unit' }
  | { readonly kind: 'protected'; readonly reply: ProtectionReply };

/** reservePurchase-4.lua: the player's first step of a purchase on a cluster. */
export async function reservePurchase(
  run: DealerRunScript,
  keys: PlayerPurchaseKeys & { readonly requests: string; readonly previousRequests: string },
  args: {
    readonly gamePrice: string;
    readonly requestId: string;
    readonly stake: number;
    readonly game: string;
    readonly now: number;
    readonly picks: string;
    readonly boughtTogether: readonly string[];
    /** `protectionArg`. */
    readonly protection: string;
    /** RedisStoreOptions.fundedByOperator. */
    readonly fundedByOperator: boolean;
  },
): Promise<ReserveResult> {
  const reply = replyList(
    'reservePurchase',
    await run('reservePurchase', [keys.wallet, keys.pending, keys.requests, keys.previousRequests], [
      args.gamePrice,
      args.requestId,
      args.stake,
      args.game,
      args.now,
      args.picks,
      args.boughtTogether.join(','),
      args.protection,
      args.fundedByOperator ? '1' : '',
    ]),
  );
  const code = int(reply[0]);
  switch (code) {
    case 1:
      return { kind: 'held', balanceBefore: int(reply[1]) };
    case 2:
      return { kind: 'sold', unitId: String(reply[1]) };
    case 3:
      return { kind: 'pending', balanceBefore: int(reply[1]), now: int(reply[2]), picks: String(reply[3] ?? '') };
    case -3:
      return { kind: 'insufficient_funds', available: int(reply[1]) };
    case -9:
      return { kind: 'unfinished_unit' };
    default: {
      const protection = protectionReply(reply);
      if (protection) return { kind: 'protected', reply: protection };
      throw scriptError('reservePurchase', code);
    }
  }
}
