import type { DepositResult } from '../types';
import type { DealerRunScript } from './commands';
import { requestMismatch } from '../identifiers';
import { scriptError } from '../../redis-scripts/errors';
import { FUNDING_MISMATCH, fundingEntry, type FundingArgs, type FundingKeys } from './funding-reply';
import { protectionReply } from '../../protection/refusal-reply';
import { int, replyList } from '../../redis-scripts/reply';

/**
 * deposit-4.lua: credited, repeated (`ref` credited this amount before), refused (`ref` was
 * another request's), or refused over the weekly deposit limit.
 */
export async function deposit(run: DealerRunScript, keys: FundingKeys, args: FundingArgs): Promise<DepositResult> {
  const reply = replyList('deposit', await run('deposit', [keys.wallet, keys.deposits, keys.journal, keys.archive], [args.amount, args.ref, args.now, args.playerId, args.otherRef ?? '']));
  const code = int(reply[0]);
  if (code === FUNDING_MISMATCH) return requestMismatch(int(reply[1]));
  const refused = protectionReply(reply);
  if (refused) return { ...refused.refusal, code: 'limit/deposit_week', details: refused.refusal.details ?? {} };
  if (code < 0) throw scriptError('deposit', code);
  return { ok: true, balance: int(reply[1]), repeated: code === 0, entry: fundingEntry(reply) };
}
