import type { Cents } from '../../src/money';
import {
  WALLET_ERROR_STATUS,
  type BalanceRequest,
  type LaunchRequest,
  type LedgerLine,
  type MoveRequest,
  type RollbackRequest,
  type WalletCall,
  type WalletError,
  type WalletErrorCode,
  type WalletOk,
} from '../../src/protocol/operator-api';
import { Journal } from './journal';

/**
 * The reference operator's wallet: player accounts and their movements, with the seamless
 * wallets' rules (docs/integration.md, "The wallet calls"). Every decision is taken and applied
 * in memory in one synchronous step (two calls never interleave between a check and its
 * movement), journalled, and answered once on disk. A transaction id's answer is kept: the same
 * id gets the same answer and never a second movement, after a restart too.
 */

export interface Answer {
  readonly status: number;
  readonly body: WalletOk | WalletError;
}

type Movement = 'debit' | 'credit' | 'rollback';

/** One line of the journal: what happened, replayed at start to rebuild the accounts. */
export type JournalRecord =
  | { readonly t: 'account'; readonly player: string; readonly balance: Cents; readonly at: number }
  | { readonly t: 'blocked'; readonly player: string; readonly blocked: boolean; readonly at: number }
  /** The player's protection the operator holds, given to the game server at each launch. */
  | { readonly t: 'protection'; readonly player: string; readonly protection: Protection; readonly at: number }
  /** A movement and its answer; `balance` the player's after it. */
  | { readonly t: 'move'; readonly call: Movement; readonly request: MoveRequest | RollbackRequest; readonly line: LedgerLine; readonly balance: Cents; readonly answer: Answer }
  /** A definite refusal, kept as that id's answer. */
  | { readonly t: 'refusal'; readonly call: Movement; readonly request: MoveRequest | RollbackRequest; readonly answer: Answer };

export interface WalletOptions {
  /** A new account's balance. */
  readonly startBalance: Cents;
  /** Open an account at a wallet call for a player never seen (load tests), not only at the lobby. */
  readonly autoCreate: boolean;
  readonly now: () => number;
}

/** What the operator holds of a player's protection: `LaunchRequest`'s `limits` and `excludedUntil`. */
export type Protection = Pick<LaunchRequest, 'limits' | 'excludedUntil'>;

interface Account {
  balance: Cents;
  blocked: boolean;
  protection: Protection;
}

type Line = { -readonly [K in keyof LedgerLine]: LedgerLine[K] };

export function refusal(code: WalletErrorCode, message: string, balance?: Cents): Answer {
  return { status: WALLET_ERROR_STATUS[code], body: balance === undefined ? { error: code, message } : { error: code, message, balance } };
}

function ok(balance: Cents, operatorTransactionId?: string): Answer {
  return { status: 200, body: operatorTransactionId === undefined ? { balance, currency: 'EUR' } : { balance, currency: 'EUR', operatorTransactionId } };
}

/** Whether a second request under a transaction id asks for the same movement as the first. */
function sameRequest(a: MoveRequest | RollbackRequest, b: MoveRequest | RollbackRequest): boolean {
  const key = (r: MoveRequest | RollbackRequest) => JSON.stringify(['amount' in r ? r.amount : null, r.player, r.round, 'referenceTransactionId' in r ? r.referenceTransactionId : null]);
  return key(a) === key(b);
}

export class Wallet {
  private readonly accounts = new Map<string, Account>();
  /** Each transaction id's call, request and answer. */
  private readonly decided = new Map<string, { call: Movement; request: MoveRequest | RollbackRequest; answer: Answer }>();
  private readonly lines: Line[] = [];
  private readonly lineById = new Map<string, Line>();
  /** Debit ids a rollback named, seen or not: such a debit arriving later is refused. */
  private readonly rolledBack = new Set<string>();

  private constructor(
    private readonly journal: Journal<JournalRecord>,
    private readonly options: WalletOptions,
  ) {}

  /** The wallet of the ledger at `path`, its journal replayed. */
  static async open(path: string, options: WalletOptions, onFailure: (err: Error) => void): Promise<Wallet> {
    const { journal, records } = await Journal.open<JournalRecord>(path, onFailure);
    const wallet = new Wallet(journal, options);
    for (const record of records) wallet.apply(record);
    return wallet;
  }

  close(): Promise<void> {
    return this.journal.close();
  }

  /** Opens the player's account with the starting balance unless it exists; true if opened now. */
  async openAccount(player: string): Promise<boolean> {
    const opened = this.openSync(player);
    await this.journal.durable();
    return opened;
  }

  async setBlocked(player: string, blocked: boolean): Promise<void> {
    this.openSync(player);
    this.commit({ t: 'blocked', player, blocked, at: this.options.now() });
    await this.journal.durable();
  }

  async setProtection(player: string, protection: Protection): Promise<void> {
    this.openSync(player);
    this.commit({ t: 'protection', player, protection, at: this.options.now() });
    await this.journal.durable();
  }

  account(player: string): Readonly<Account> | undefined {
    return this.accounts.get(player);
  }

  /** The movements, in the order they were applied; `filter` picks some. */
  ledger(filter: (line: LedgerLine) => boolean = () => true): LedgerLine[] {
    return this.lines.filter(filter).map((line) => ({ ...line }));
  }

  async call(call: WalletCall, request: BalanceRequest | MoveRequest | RollbackRequest): Promise<Answer> {
    const answer = this.decide(call, request);
    await this.journal.durable();
    return answer;
  }

  private decide(call: WalletCall, request: BalanceRequest | MoveRequest | RollbackRequest): Answer {
    if (call === 'balance') return this.balance(request.player);
    const move = request as MoveRequest | RollbackRequest;
    const known = this.decided.get(move.transactionId);
    if (known) {
      if (known.call === call && sameRequest(known.request, move)) return known.answer;
      return refusal('invalid_request', `transactionId ${move.transactionId} was used for another movement`);
    }
    if (call === 'rollback') return this.rollback(move as RollbackRequest);
    return this.move(call, move as MoveRequest);
  }

  private balance(player: string): Answer {
    const account = this.reachable(player);
    if (!account) return refusal('unknown_player', `no account for player ${player}`);
    if (account.blocked) return refusal('player_blocked', `player ${player} is blocked by the operator`);
    return ok(account.balance);
  }

  private move(call: 'debit' | 'credit', request: MoveRequest): Answer {
    const account = this.reachable(request.player);
    const refused = this.refusalOf(call, request, account);
    if (refused) {
      this.commit({ t: 'refusal', call, request, answer: refused });
      return refused;
    }
    const balance = account!.balance + (call === 'debit' ? -request.amount : request.amount);
    const line: LedgerLine = { transactionId: request.transactionId, player: request.player, round: request.round, game: request.game, kind: call, amount: request.amount, at: this.options.now(), state: 'standing' };
    const answer = ok(balance, `op-${this.lines.length + 1}`);
    this.commit({ t: 'move', call, request, line, balance, answer });
    return answer;
  }

  private refusalOf(call: 'debit' | 'credit', request: MoveRequest, account: Account | undefined): Answer | undefined {
    if (call === 'debit' && this.rolledBack.has(request.transactionId)) return refusal('transaction_rolled_back', `debit ${request.transactionId} was rolled back before it arrived`);
    if (!account) return refusal('unknown_player', `no account for player ${request.player}`);
    if (call === 'credit') return undefined; // a prize is owed, blocked or not
    if (account.blocked) return refusal('player_blocked', `player ${request.player} is blocked by the operator`, account.balance);
    if (request.amount > account.balance) return refusal('insufficient_funds', `balance ${account.balance} is below ${request.amount}`, account.balance);
    return undefined;
  }

  /** Undoes its debit once; a rollback of a debit never seen (or that moved nothing) is acknowledged and remembered. */
  private rollback(request: RollbackRequest): Answer {
    const debit = this.lineById.get(request.referenceTransactionId);
    if (debit && (debit.kind !== 'debit' || debit.player !== request.player)) {
      return refusal('invalid_request', `${request.referenceTransactionId} is not a debit of player ${request.player}`);
    }
    const undoes = debit !== undefined && debit.state === 'standing';
    const account = this.accounts.get(request.player);
    const balance = (account?.balance ?? 0) + (undoes ? debit.amount : 0);
    const line: LedgerLine = {
      transactionId: request.transactionId,
      player: request.player,
      round: request.round,
      game: debit?.game ?? '',
      kind: 'rollback',
      amount: undoes ? debit.amount : 0,
      at: this.options.now(),
      state: undoes ? 'applied' : 'unmatched',
      referenceTransactionId: request.referenceTransactionId,
    };
    const answer = ok(balance, `op-${this.lines.length + 1}`);
    this.commit({ t: 'move', call: 'rollback', request, line, balance, answer });
    return answer;
  }

  /** The player's account, opened now if wallet calls may open accounts. */
  private reachable(player: string): Account | undefined {
    if (this.options.autoCreate) this.openSync(player);
    return this.accounts.get(player);
  }

  private openSync(player: string): boolean {
    if (this.accounts.has(player)) return false;
    this.commit({ t: 'account', player, balance: this.options.startBalance, at: this.options.now() });
    return true;
  }

  private commit(record: JournalRecord): void {
    this.apply(record);
    void this.journal.append(record).catch(() => undefined); // its failure stops the process (onFailure)
  }

  /** One record's effect on memory: the same live and at replay. */
  private apply(record: JournalRecord): void {
    switch (record.t) {
      case 'account':
        this.accounts.set(record.player, { balance: record.balance, blocked: false, protection: {} });
        return;
      case 'blocked':
        this.accounts.get(record.player)!.blocked = record.blocked;
        return;
      case 'protection':
        this.accounts.get(record.player)!.protection = record.protection;
        return;
      case 'refusal':
        this.decided.set(record.request.transactionId, { call: record.call, request: record.request, answer: record.answer });
        return;
      case 'move':
        this.applyMove(record);
    }
  }

  private applyMove(record: Extract<JournalRecord, { t: 'move' }>): void {
    const line: Line = { ...record.line };
    this.lines.push(line);
    this.lineById.set(line.transactionId, line);
    this.decided.set(line.transactionId, { call: record.call, request: record.request, answer: record.answer });
    const account = this.accounts.get(line.player);
    if (account) account.balance = record.balance;
    if (line.kind !== 'rollback') return;
    this.rolledBack.add(line.referenceTransactionId!);
    if (line.state === 'applied') this.lineById.get(line.referenceTransactionId!)!.state = 'rolled_back';
  }
}
