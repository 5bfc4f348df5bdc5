import type { WithdrawResult } from '../types';
import type { DealerRunScript } from './commands';
import { requestMismatch } from '../identifiers';
import { scriptError } from '../../redis-scripts/errors';
import { FUNDING_MISMATCH, fundingEntry, type FundingArgs, type FundingKeys } from './funding-reply';
import { int, replyList } from '../../redis-scripts/reply';

const INSUFFICIENT_FUNDS = -11;

/** withdraw-4.lua: debited, repeated (`ref` debited this amount before), refused below zero, or refused (`ref` was another request's). */
export async function withdraw(run: DealerRunScript, keys: FundingKeys, args: FundingArgs): Promise<WithdrawResult> {
  const reply = replyList('withdraw', await run('withdraw', [keys.wallet, keys.deposits, keys.journal, keys.archive], [args.amount, args.ref, args.now, args.playerId, args.otherRef ?? '']));
  const code = int(reply[0]);
  const balance = int(reply[1]);
  if (code === INSUFFICIENT_FUNDS) return { ok: false, code: 'wallet/insufficient_funds', message: 'the balance is below the amount', balance };
  if (code === FUNDING_MISMATCH) return requestMismatch(balance);
  if (code < 0) throw scriptError('withdraw', code);
  return { ok: true, balance, repeated: code === 0, entry: fundingEntry(reply) };
}
