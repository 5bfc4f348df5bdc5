import type { DealerRunScript } from './commands';
import { scriptError } from './errors';
import { DepositLimitError } from '../protection';
import { protectionReply } from './protection-reply';
import { int, replyList } from './reply';

/**
 * deposit-3.lua: the balance after the deposit (or as it is, when `ref` was credited before);
 * throws `DepositLimitError` over the weekly deposit limit.
 */
export async function deposit(
  run: DealerRunScript,
  keys: { readonly wallet: string; readonly deposits: string; readonly journal: string },
  args: { readonly amount: number; readonly ref: string; readonly now: number },
): Promise<number> {
  const reply = replyList('deposit', await run('deposit', [keys.wallet, keys.deposits, keys.journal], [args.amount, args.ref, args.now]));
  const code = int(reply[0]);
  const refused = protectionReply(reply);
  if (refused) throw new DepositLimitError(refused.refusal);
  if (code < 0) throw scriptError('deposit', code);
  return int(reply[1]);
}
