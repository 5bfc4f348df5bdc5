import type { LedgerLine } from '../../protocol/operator-api';
import { rollbackTxId, type WalletTx } from './wallet-transactions';

/**
 * The server's side of the reconciliation (docs/integration.md, "Reconciliation"): its outbox
 * records as ledger lines, in the format the operator's export uses. What the server knows of
 * each movement: a debit stands once the operator confirmed it (`debited`, `dealt`); one the
 * server rolled back (or is rolling back) is `rolled_back`, with its rollback's line; a credit
 * stands from the moment it is owed (`credit_due`: a credit not paid yet shows as a difference
 * until it is). A debit whose answer is still awaited, or that the operator refused, moved
 * nothing the server knows of: no line.
 */
export function ledgerLines(txs: readonly WalletTx[]): LedgerLine[] {
  const lines: LedgerLine[] = [];
  for (const tx of txs) {
    const line = { transactionId: tx.id, player: tx.player, round: tx.round, game: tx.game, kind: tx.kind, amount: tx.amount, at: tx.createdAt };
    switch (tx.state) {
      case 'debited':
      case 'dealt':
      case 'credit_due':
      case 'credited':
        lines.push({ ...line, state: 'standing' });
        break;
      case 'rollback_due':
      case 'rolled_back':
        lines.push({ ...line, state: 'rolled_back' });
        lines.push({ ...line, transactionId: rollbackTxId(tx.id), kind: 'rollback', at: tx.updatedAt, state: 'applied', referenceTransactionId: tx.id });
        break;
      case 'debiting':
      case 'refused':
        break;
    }
  }
  return lines;
}
