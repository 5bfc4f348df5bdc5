import type { UnitCheck } from '../../protocol/verification';
import type { RecallRead } from './recall-shape';

/**
 * The player's journal lines from the unit's stake to its prize credit: the stake debited once,
 * exactly the proven prize credited once (none for a losing unit), the balances chained line by
 * line (other lines of the player's may sit between, a lamp pair's other stake say).
 */
export function ledgerCheck(recall: RecallRead, provenPrize: number): UnitCheck {
  const problem = ledgerProblem(recall, provenPrize);
  return problem === undefined
    ? { id: 'ledger', ok: true, detail: `the stake of ${recall.stake} cents is debited once and ${provenPrize > 0 ? `the proven prize of ${provenPrize} cents credited once` : 'no prize is credited (a losing unit)'}, balances chained` }
    : { id: 'ledger', ok: false, detail: problem };
}

function ledgerProblem(recall: RecallRead, provenPrize: number): string | undefined {
  const { ledger, unitId, stake } = recall;
  const first = ledger[0];
  if (!first || first.kind !== 'stake' || first.ref !== unitId) return 'the ledger does not start with this unit\'s stake';
  if (first.amount !== -stake) return `the stake line debits ${-first.amount} cents, the unit costs ${stake}`;
  if (recall.balanceBefore - stake !== recall.balanceAfterStake || first.balance !== recall.balanceAfterStake) {
    return `the balance goes from ${recall.balanceBefore} to ${first.balance} (recalled ${recall.balanceAfterStake}) for a stake of ${stake} cents`;
  }
  for (let i = 1; i < ledger.length; i++) {
    const [before, line] = [ledger[i - 1]!, ledger[i]!];
    if (line.seq !== before.seq + 1) return `journal line ${line.seq} follows line ${before.seq}: a line is missing`;
    if (line.balance !== before.balance + line.amount) return `journal line ${line.seq} takes the balance from ${before.balance} by ${line.amount} to ${line.balance}`;
    if (line.ref === unitId && line.kind === 'stake') return `the unit's stake is debited twice (line ${line.seq})`;
  }
  const credits = ledger.filter((line) => line.ref === unitId && line.kind === 'prize');
  const last = ledger[ledger.length - 1]!;
  if (provenPrize === 0) {
    if (credits.length > 0 || ledger.length !== 1) return `a losing unit's ledger is its stake alone; this one has ${ledger.length} lines`;
  } else {
    if (credits.length !== 1 || last !== credits[0]) return `the proven prize of ${provenPrize} cents should be credited once, on the ledger's last line; ${credits.length} credits found`;
    if (last.amount !== provenPrize) return `the prize credited is ${last.amount} cents, the proven tier pays ${provenPrize}`;
  }
  if (last.balance !== recall.balanceAfterPrize) return `the ledger ends at ${last.balance} cents, the recall says the balance after the prize is ${recall.balanceAfterPrize}`;
  return undefined;
}
