import { createHash } from 'node:crypto';
import type { Cents } from '../../money';

/**
 * The seamless wallet's durable outbox (docs/integration.md, "Timeouts and retries (the server's policy)"): one record
 * per movement asked of the operator's wallet — a purchase's debit, a prize's credit — kept in
 * the store (memory or Redis), never in a process's memory, so that a debit left undecided is
 * rolled back and a credit paid whatever process dies. Every change is a compare-and-set on the
 * record's state (and, for a claim, its attempts), so that two processes never both act on one
 * movement; each call to the operator carries the record's id as its idempotency key.
 */
export type WalletTxState =
  /** The debit is asked (or about to be): its answer is not known yet. */
  | 'debiting'
  /** The operator took the stake: the unit is being dealt. */
  | 'debited'
  /** Final: debited, and the unit dealt (`unitId`). */
  | 'dealt'
  /** Final: the operator refused the debit (`lastError`): nothing moved. */
  | 'refused'
  /** The debit's outcome is unknown, or no unit was dealt after it: its rollback is sent until acknowledged. */
  | 'rollback_due'
  /** Final: the operator acknowledged the rollback. */
  | 'rolled_back'
  /** A prize to pay: sent until the operator pays it. */
  | 'credit_due'
  /** Final: paid. */
  | 'credited';

export const FINAL_STATES: readonly WalletTxState[] = ['dealt', 'refused', 'rolled_back', 'credited'];

export interface WalletTx {
  /** The idempotency key of the debit or credit (`debitTxId`, `creditTxId`); a rollback's is `rollbackTxId(id)`. */
  readonly id: string;
  readonly kind: 'debit' | 'credit';
  readonly player: string;
  /** The purchase's request id (the round). */
  readonly round: string;
  readonly game: string;
  readonly amount: Cents;
  readonly state: WalletTxState;
  /** Store time, ms since the epoch. */
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Sends so far (each claim counts one): what a claim compares. */
  readonly attempts: number;
  /** When the sender takes it next (ms); for an in-flight debit, when it counts as abandoned. */
  readonly nextAttemptAt: number;
  /** The unit dealt (debit) or paid for (credit); '' before a debit's unit is dealt. */
  readonly unitId: string;
  /** A debit's purchase as the dealer takes it again (JSON: picks, boughtTogether), for the sender to re-drive. */
  readonly purchase: string;
  /** The operator's last refusal or failure ('' none). */
  readonly lastError: string;
}

/** What a move changes besides the state. */
export interface WalletTxPatch {
  readonly attempts?: number;
  readonly nextAttemptAt?: number;
  readonly unitId?: string;
  readonly lastError?: string;
}

export interface WalletTransactions {
  /** Adds a new record; false (and nothing changes) when one of that id exists. */
  add(tx: WalletTx): Promise<boolean>;
  get(id: string): Promise<WalletTx | undefined>;
  /**
   * Moves a record to `to` with `patch`, only if its state is one of `from` (and, when given,
   * its attempts are `attempts`): the record after, or undefined when the comparison failed.
   */
  move(id: string, from: readonly WalletTxState[], to: WalletTxState, patch: WalletTxPatch & { readonly updatedAt: number }, attempts?: number): Promise<WalletTx | undefined>;
  /** Records not final whose `nextAttemptAt` is at or before `now`, at most `limit`. */
  due(now: number, limit: number): Promise<WalletTx[]>;
  /** The earliest `nextAttemptAt` of the records not final (undefined: none): how late the sending is. */
  earliestDue(): Promise<number | undefined>;
  /** Records created in [from, to), oldest first (the server's ledger, for the reconciliation). */
  created(from: number, to: number): Promise<WalletTx[]>;
  /**
   * Takes the player's debit slot for debit `id` until `now + ttlMs` (the store's clock): one
   * debit of a player at a time goes to the operator, from the protection read before it to its
   * unit dealt or its rollback decided, so that the read is exact. False when another debit
   * holds it; true again for the debit that holds it.
   */
  claimDebitSlot(player: string, id: string, now: number, ttlMs: number): Promise<boolean>;
  /** Frees the player's debit slot if debit `id` holds it. */
  releaseDebitSlot(player: string, id: string): Promise<void>;
}

const idHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** A purchase's debit: one per player and request id, whatever the retries. */
export function debitTxId(player: string, requestId: string): string {
  return `d-${idHash(`${player}\n${requestId}`)}`;
}

/** A debit's rollback. */
export function rollbackTxId(debitId: string): string {
  return `r-${debitId.slice(2)}`;
}

/** A unit's prize: one per unit. */
export function creditTxId(unitId: string): string {
  return `c-${idHash(unitId)}`;
}

const isFinal = (state: WalletTxState) => FINAL_STATES.includes(state);

/** The embedded default's outbox: the process's memory (the embedded server keeps nothing anyway). */
export class MemoryWalletTransactions implements WalletTransactions {
  private readonly records = new Map<string, WalletTx>();
  /** Each player's debit slot: the debit holding it, and until when. */
  private readonly slots = new Map<string, { id: string; until: number }>();

  async add(tx: WalletTx): Promise<boolean> {
    if (this.records.has(tx.id)) return false;
    this.records.set(tx.id, tx);
    return true;
  }

  async get(id: string): Promise<WalletTx | undefined> {
    return this.records.get(id);
  }

  async move(id: string, from: readonly WalletTxState[], to: WalletTxState, patch: WalletTxPatch & { readonly updatedAt: number }, attempts?: number): Promise<WalletTx | undefined> {
    const tx = this.records.get(id);
    if (!tx || !from.includes(tx.state) || (attempts !== undefined && tx.attempts !== attempts)) return undefined;
    const next = { ...tx, ...patch, state: to };
    this.records.set(id, next);
    return next;
  }

  async due(now: number, limit: number): Promise<WalletTx[]> {
    const due = [...this.records.values()].filter((tx) => !isFinal(tx.state) && tx.nextAttemptAt <= now);
    return due.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt).slice(0, limit);
  }

  async earliestDue(): Promise<number | undefined> {
    let earliest: number | undefined;
    for (const tx of this.records.values()) if (!isFinal(tx.state) && (earliest === undefined || tx.nextAttemptAt < earliest)) earliest = tx.nextAttemptAt;
    return earliest;
  }

  async created(from: number, to: number): Promise<WalletTx[]> {
    return [...this.records.values()].filter((tx) => tx.createdAt >= from && tx.createdAt < to).sort((a, b) => a.createdAt - b.createdAt);
  }

  async claimDebitSlot(player: string, id: string, now: number, ttlMs: number): Promise<boolean> {
    const held = this.slots.get(player);
    if (held && held.id !== id && held.until > now) return false;
    this.slots.set(player, { id, until: now + ttlMs });
    return true;
  }

  async releaseDebitSlot(player: string, id: string): Promise<void> {
    if (this.slots.get(player)?.id === id) this.slots.delete(player);
  }
}
