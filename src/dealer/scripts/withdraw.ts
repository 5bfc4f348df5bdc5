import type { WithdrawResult } from '../types';
import type { DealerRunScript } from './commands';
import { scriptError } from './errors';
import { int, replyList } from './reply';

const INSUFFICIENT_FUNDS = -11;

/** withdraw-3.lua: debited, replayed (`ref` debited before) or refused below zero. */
export async function withdraw(
  run: DealerRunScript,
  keys: { readonly wallet: string; readonly deposits: string; readonly journal: string },
  args: { readonly amount: number; readonly ref: string; readonly now: number },
): Promise<WithdrawResult> {
  const reply = replyList('withdraw', await run('withdraw', [keys.wallet, keys.deposits, keys.journal], [args.amount, args.ref, args.now]));
  const code = int(reply[0]);
  const balance = int(reply[1]);
  if (code === INSUFFICIENT_FUNDS) return { ok: false, code: 'wallet/insufficient_funds', message: 'the balance is below the amount', balance };
  if (code < 0) throw scriptError('withdraw', code);
  return { ok: true, balance, replayed: code === 0 };
}
