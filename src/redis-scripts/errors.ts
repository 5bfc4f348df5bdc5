import type { ProtectionRefusal } from '../protection/rules';

/**
 * The one error factory of the dealer's Lua scripts: every negative return code of
 * src/dealer/lua/*.lua and src/action-log/lua/*.lua maps here to a namespaced code and a sentence. The store turns the
 * refusal codes into refusal results and handles the others (see redis/dealing.ts).
 */

const RETURN_CODES = {
  [-1]: ['purchase/unknown_game', 'no emission is sold for this game at this price'],
  [-2]: ['purchase/game_closed', 'the emission is sold out'],
  [-3]: ['purchase/insufficient_funds', 'the balance is below the stake'],
  [-4]: ['dealer/next_block_not_printed', 'the open block is sold out and the next one is not printed yet'],
  [-5]: ['settle/unknown_unit', 'no such sale'],
  [-6]: ['dealer/emission_exists', 'an emission with this id exists already'],
  [-7]: ['dealer/sequence_busy', 'this game and price are still selling another emission'],
  [-8]: ['dealer/unknown_emission', 'no such emission, or no such block in it'],
  [-9]: ['purchase/unfinished_unit', 'finish your unit of this game before buying another'],
  [-10]: ['dealer/block_not_offloadable', 'the block is unknown, not closed, or has units not settled'],
  [-11]: ['wallet/insufficient_funds', 'the balance is below the amount'],
  [-12]: ['dealer/lane_passed', 'this lane turned this request away before, sold out then (its walk goes on)'],
  // -13 … -18 and -20: refusals for the player's protection (src/protection/lua/includes/protection.lua): `detail.protection`.
  [-13]: ['protection/blocked', 'the operator blocked play on this account'],
  [-14]: ['protection/excluded', 'the player excluded themself from play'],
  [-15]: ['limit/not_set', 'no weekly stake limit is set'],
  [-16]: ['protection/reality_check', 'the reality check is due'],
  [-17]: ['limit/stake_week', 'a stake limit would be passed'],
  [-18]: ['limit/deposit_week', 'the weekly deposit limit would be passed'],
  [-19]: ['request/mismatch', 'this reference was used before for another amount or operation'],
  [-20]: ['limit/time_week', 'a playing-time limit is reached'],
} as const;

type ReturnCode = keyof typeof RETURN_CODES;
export type DealerErrorCode = (typeof RETURN_CODES)[ReturnCode][0] | 'dealer/unexpected_reply';

/** What a script said beside its code, for the caller to act on (the block to print, say). */
export interface ScriptErrorDetail {
  readonly emissionId?: string;
  readonly index?: number;
  readonly balance?: number;
  /** Codes -13 … -18 and -20: the refusal as the player gets it (src/protection/refusal-reply.ts). */
  readonly protection?: ProtectionReply;
}

/** A protection refusal as lua/includes/protection.lua answers it (src/protection/refusal-reply.ts reads it). */
export interface ProtectionReply {
  readonly refusal: ProtectionRefusal;
  /** A reality check's: the session's start, whose stakes and prizes give the net (read after). */
  readonly sessionStart?: number;
}

export class DealerScriptError extends Error {
  constructor(
    readonly code: DealerErrorCode,
    readonly script: string,
    readonly returnCode: number,
    readonly detail: ScriptErrorDetail,
    message: string,
  ) {
    super(message);
    this.name = 'DealerScriptError';
  }
}

export function scriptError(script: string, returnCode: number, detail: ScriptErrorDetail = {}): DealerScriptError {
  const known = RETURN_CODES[returnCode as ReturnCode];
  if (!known) return new DealerScriptError('dealer/unexpected_reply', script, returnCode, detail, `${script}: unexpected reply ${returnCode}`);
  return new DealerScriptError(known[0], script, returnCode, detail, `${script}: ${known[1]}`);
}
