import type { BalanceRequest, MoveRequest, RollbackRequest } from '../../../src/protocol/operator-api';
import type { WalletAnswer, WalletApi } from '../../../src/wallet/seamless/operator-wallet';

/** What the next call of a kind does, instead of answering normally. */
export type Fault =
  /** The movement is made, and its answer lost (a timeout after the fact). */
  | 'apply_then_lose'
  /** Nothing is made and nothing answered (a timeout before it arrived). */
  | 'lose'
  /** A definite refusal with this code, nothing made. */
  | { readonly refuse: 'insufficient_funds' | 'player_blocked' | 'limit_reached' };

/**
 * An operator's wallet with the field's semantics, in memory, whose next answers a test
 * scripts: the same transaction id answered the same and moved once; a rollback undoes its
 * debit once; a rollback of an unknown debit acknowledged and remembered, so that the debit
 * arriving after it is refused. (The reference operator, examples/operator/, is the same over HTTP.)
 */
export class ScriptedWallet implements WalletApi {
  readonly balances = new Map<string, number>();
  /** Every movement made, in order: what the reconciliation reads. */
  readonly movements: { id: string; kind: 'debit' | 'credit' | 'rollback'; player: string; amount: number }[] = [];
  readonly calls: string[] = [];
  private readonly answers = new Map<string, WalletAnswer>();
  private readonly rolledBack = new Set<string>();
  private readonly faults: Record<'debit' | 'credit' | 'rollback', Fault[]> = { debit: [], credit: [], rollback: [] };

  constructor(private readonly opening = 10_000) {}

  /** The next calls of `kind` meet these faults, one each, in order. */
  fault(kind: 'debit' | 'credit' | 'rollback', ...faults: Fault[]): void {
    this.faults[kind].push(...faults);
  }

  balanceOf(player: string): number {
    return this.balances.get(player) ?? this.opening;
  }

  async balance(request: BalanceRequest): Promise<WalletAnswer> {
    this.calls.push(`balance ${request.player}`);
    return { kind: 'ok', balance: this.balanceOf(request.player), status: 200 };
  }

  async debit(request: MoveRequest): Promise<WalletAnswer> {
    return this.move('debit', request.transactionId, request.player, () => {
      if (this.rolledBack.has(request.transactionId)) return { kind: 'refused', code: 'transaction_rolled_back', message: 'rolled back', status: 409 };
      if (this.balanceOf(request.player) < request.amount) return { kind: 'refused', code: 'insufficient_funds', message: 'no funds', status: 402, balance: this.balanceOf(request.player) };
      return this.apply(request.transactionId, 'debit', request.player, -request.amount);
    });
  }

  async credit(request: MoveRequest): Promise<WalletAnswer> {
    return this.move('credit', request.transactionId, request.player, () => this.apply(request.transactionId, 'credit', request.player, request.amount));
  }

  async rollback(request: RollbackRequest): Promise<WalletAnswer> {
    return this.move('rollback', request.transactionId, request.player, () => {
      this.rolledBack.add(request.referenceTransactionId);
      const debit = this.movements.find((m) => m.id === request.referenceTransactionId && m.kind === 'debit');
      if (!debit) return { kind: 'ok', balance: this.balanceOf(request.player), status: 200 };
      return this.apply(request.transactionId, 'rollback', request.player, -debit.amount);
    });
  }

  private async move(kind: 'debit' | 'credit' | 'rollback', id: string, player: string, make: () => WalletAnswer): Promise<WalletAnswer> {
    this.calls.push(`${kind} ${id}`);
    await Promise.resolve();
    const fault = this.faults[kind].shift();
    if (fault === 'lose') return { kind: 'undecided', reason: 'timeout' };
    if (fault !== undefined && typeof fault === 'object') return { kind: 'refused', code: fault.refuse, message: 'scripted', status: 403, balance: this.balanceOf(player) };
    let answer = this.answers.get(id);
    if (!answer) {
      answer = make();
      this.answers.set(id, answer);
    }
    return fault === 'apply_then_lose' ? { kind: 'undecided', reason: 'timeout' } : answer;
  }

  private apply(id: string, kind: 'debit' | 'credit' | 'rollback', player: string, amount: number): WalletAnswer {
    const balance = this.balanceOf(player) + amount;
    this.balances.set(player, balance);
    this.movements.push({ id, kind, player, amount });
    return { kind: 'ok', balance, status: 200 };
  }
}
