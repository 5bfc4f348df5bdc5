import type { PurchaseRequest, PurchaseResult, Sale, Sales, SettleResult, Wallet, Wallets } from '../../dealer/types';
import type { Cents } from '../../money';
import type { ProtectionRefusal } from '../../protection/rules';
import type { PlayerMoney } from '../player-money';
import type { WalletAnswer, WalletApi } from './operator-wallet';
import { creditTxId, debitTxId, rollbackTxId, type WalletTransactions, type WalletTx } from './wallet-transactions';

/** Retries of rollbacks and credits: 1 s, 2 s, 4 s, … at most 5 min apart, until acknowledged. */
export function retryDelayMs(attempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempts - 1), 300_000);
}

/** How often a purchase waiting for the player's debit slot, or for its debit in hand elsewhere, looks again. */
const SLOT_POLL_MS = 20;
const pause = () => new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
/** Records read at once by the sender. */
const SEND_BATCH = 50;
/** Balances remembered for display (the last the operator told), per player. */
const BALANCES_KEPT = 10_000;
/**
 * A balance the operator told this recently (a debit's or a credit's answer) is shown as it is:
 * the wallet after a purchase or a win costs no call of its own.
 */
const BALANCE_FRESH_MS = 1000;

export interface SeamlessMoneyOptions {
  readonly sales: Pick<Sales, 'purchase' | 'settle'>;
  readonly wallets: Pick<Wallets, 'wallet'>;
  readonly outbox: WalletTransactions;
  readonly wallet: WalletApi;
  /** The store's clock. */
  readonly now: () => number;
  /** WALLET_TIMEOUT_MS: a debit still in flight this long after (plus a margin) was cut. */
  readonly timeoutMs: number;
  /**
   * The player's protection read before the debit (limits, exclusion, blocks, the reality
   * check), with the player's debit slot held, so that the operator is never asked for a stake
   * the purchase would refuse; the purchase's atomic step checks them again (a change the
   * player makes meanwhile, such as an exclusion, refuses it there, and its debit is rolled back).
   */
  readonly protectionRefusal: (playerId: string, stake: Cents) => Promise<ProtectionRefusal | undefined>;
  /** Told what the sender could not do (it goes on trying). */
  readonly failed?: (tx: WalletTx, err: unknown) => void;
}

type Refused = Extract<PurchaseResult, { ok: false }>;

const refusal = (code: Refused['code'], message: string): Refused => ({ ok: false, code, message });

/**
 * The seamless wallet (docs/integration.md): each purchase's stake debited from the operator's
 * wallet before its unit is dealt, each prize credited to it, with the field's failure
 * semantics. Every movement is first written to the outbox (`WalletTransactions`), under an id
 * that is its idempotency key; a debit is tried once: a definite refusal ends the purchase and
 * deals nothing, an undecided answer is rolled back; rollbacks and credits are sent until the
 * operator acknowledges them (`sendDue`, run by every process), across restarts.
 *
 * Invariants: no unit is dealt without a confirmed debit (the dealer's purchase runs only
 * after the outbox moved the debit to `debited`); no debit stands without its unit or a
 * rollback (a debit whose purchase is refused, or whose process died before it moved on, is
 * moved to `rollback_due`, by compare-and-set, so that a late answer cannot deal after it);
 * every prize is credited once (one record per unit, its id the credit's key).
 */
export class SeamlessMoney implements PlayerMoney {
  /** The last balance the operator told of each player, and when (store time). */
  private readonly balances = new Map<string, { balance: Cents; at: number }>();
  /** Per player, this process's calls to the operator's wallet: sent so far, and in flight. */
  private readonly calls = new Map<string, { sent: number; inFlight: number }>();

  constructor(private readonly options: SeamlessMoneyOptions) {}

  /** How many times a wait looks again within the wallet's timeout (SLOT_POLL_MS apart). */
  private get looksWithinTimeout(): number {
    return Math.ceil(this.options.timeoutMs / SLOT_POLL_MS);
  }

  /** A debit in flight is taken for cut (and rolled back) this long after it was last moved. */
  private get staleMs(): number {
    return this.options.timeoutMs + 30_000;
  }

  /**
   * One purchase: its debit, then its unit. The player's debit slot is held from the protection
   * read to the unit dealt or the rollback decided, so that two purchases of one player (two
   * tables, two processes) never both pass the read before either is counted: the second waits
   * for the first (at most the wallet's timeout, then `wallet/pending`) and is read after it.
   */
  async purchase(request: PurchaseRequest): Promise<PurchaseResult> {
    const { outbox, now } = this.options;
    const id = debitTxId(request.playerId, request.requestId);
    for (let looks = this.looksWithinTimeout; ; looks--) {
      const known = await outbox.get(id);
      if (known) return this.again(known, request);
      if (await outbox.claimDebitSlot(request.playerId, id, now(), this.staleMs)) break;
      if (looks <= 0) return refusal('wallet/pending', 'another purchase of yours is being settled with the operator’s wallet: ask again in a moment');
      await pause();
    }
    try {
      return await this.debitThenDeal(id, request);
    } finally {
      await outbox.releaseDebitSlot(request.playerId, id);
    }
  }

  private async debitThenDeal(id: string, request: PurchaseRequest): Promise<PurchaseResult> {
    const { outbox, now } = this.options;
    const refused = await this.options.protectionRefusal(request.playerId, request.stake);
    if (refused) return refused;
    const at = now();
    const purchase = JSON.stringify({ picks: request.picks ?? '', boughtTogether: request.boughtTogether ?? [], protection: request.protection ?? null });
    const tx: WalletTx = {
      id, kind: 'debit', player: request.playerId, round: request.requestId, game: request.game, amount: request.stake, state: 'debiting',
      createdAt: at, updatedAt: at, attempts: 1, nextAttemptAt: at + this.staleMs, unitId: '', purchase, lastError: '',
    };
    if (!(await outbox.add(tx))) return this.again((await outbox.get(id))!, request);
    const answer = await this.walletCall(tx.player, false, () => this.options.wallet.debit({ transactionId: id, player: tx.player, round: tx.round, game: tx.game, amount: tx.amount, currency: 'EUR' }));
    if (answer.kind === 'refused') {
      await outbox.move(id, ['debiting'], 'refused', { updatedAt: now(), lastError: answer.code });
      return operatorRefusal(answer.code, answer.message);
    }
    if (answer.kind === 'undecided') return this.rollBack(tx, ['debiting'], answer.reason);
    const debited = await outbox.move(id, ['debiting'], 'debited', { updatedAt: now(), nextAttemptAt: now() + this.staleMs });
    // The sender took it for cut and is rolling it back: this purchase must not deal.
    if (!debited) return refusal('wallet/undecided', 'the debit was rolled back before its unit was dealt');
    return this.deal(debited, { ...request, now: at });
  }

  /**
   * Pays a finished unit's prize: its credit is written to the outbox before the dealer's
   * settlement (a settlement cut after it leaves the unit for the sweeper, which writes the
   * same credit again: one record), then sent at once; a credit that fails is sent again by
   * `sendDue` until paid.
   */
  async settle(sale: Sale, now: number): Promise<SettleResult> {
    const { outbox } = this.options;
    let credit: WalletTx | undefined;
    if (sale.prize > 0) {
      const id = creditTxId(sale.unitId);
      credit = {
        id, kind: 'credit', player: sale.playerId, round: sale.requestId, game: sale.game, amount: sale.prize, state: 'credit_due',
        createdAt: now, updatedAt: now, attempts: 0, nextAttemptAt: now, unitId: sale.unitId, purchase: '', lastError: '',
      };
      if (!(await outbox.add(credit))) credit = undefined;
    }
    const settled = await this.options.sales.settle(sale.unitId, now);
    if (credit) await this.send(credit).catch((err: unknown) => this.options.failed?.(credit!, err));
    return settled;
  }

  async wallet(playerId: string): Promise<Wallet> {
    const { held } = await this.options.wallets.wallet(playerId);
    const known = this.balances.get(playerId);
    if (known && this.options.now() - known.at < BALANCE_FRESH_MS) return { balance: known.balance, held };
    const answer = await this.walletCall(playerId, false, () => this.options.wallet.balance({ player: playerId, currency: 'EUR' }));
    // The operator away: the last balance it told, if any.
    const balance = answer.kind === 'ok' ? answer.balance : known?.balance;
    if (balance === undefined) throw new Error(`the operator's wallet did not give ${playerId}'s balance: ${reasonOf(answer)}`);
    return { balance, held };
  }

  /**
   * Sends what is due: the rollbacks and credits not yet acknowledged, and the debits whose
   * process was cut (rolled back if their answer was never known, dealt if it was). Each
   * record is claimed first (compare-and-set on its attempts), so two processes never send one
   * at once. The number of records handled.
   */
  async sendDue(): Promise<number> {
    const due = await this.options.outbox.due(this.options.now(), SEND_BATCH);
    let handled = 0;
    for (const tx of due) {
      try {
        if (await this.send(tx)) handled++;
      } catch (err) {
        this.options.failed?.(tx, err);
      }
    }
    return handled;
  }

  /** One record's next step, once claimed; false when another process had it. */
  private async send(tx: WalletTx): Promise<boolean> {
    const { outbox, now } = this.options;
    const claimed = await outbox.move(tx.id, [tx.state], tx.state, { updatedAt: now(), attempts: tx.attempts + 1, nextAttemptAt: now() + retryDelayMs(tx.attempts + 1) }, tx.attempts);
    if (!claimed) return false;
    switch (claimed.state) {
      case 'debiting':
        // Its process died waiting for the answer: whatever the operator did, undo it.
        await this.rollBack(claimed, ['debiting'], 'cut before its answer');
        return true;
      case 'debited': {
        // Debited, and its process died before the unit was dealt: deal it now (by request id,
        // once), in the player's debit slot as a purchase is (taken: it waits for the next send).
        if (!(await outbox.claimDebitSlot(claimed.player, claimed.id, now(), this.staleMs))) return false;
        const saved = JSON.parse(claimed.purchase) as { picks: string; boughtTogether: string[]; protection: PurchaseRequest['protection'] | null };
        try {
          await this.deal(claimed, {
            playerId: claimed.player, requestId: claimed.round, game: claimed.game, stake: claimed.amount, now: claimed.createdAt, picks: saved.picks,
            ...(saved.boughtTogether.length > 0 ? { boughtTogether: saved.boughtTogether } : {}), ...(saved.protection ? { protection: saved.protection } : {}),
          });
        } finally {
          await outbox.releaseDebitSlot(claimed.player, claimed.id);
        }
        return true;
      }
      case 'rollback_due':
        await this.sendRollback(claimed);
        return true;
      case 'credit_due': {
        const answer = await this.walletCall(claimed.player, claimed.attempts > 1, () => this.options.wallet.credit({ transactionId: claimed.id, player: claimed.player, round: claimed.round, game: claimed.game, amount: claimed.amount, currency: 'EUR' }));
        if (answer.kind === 'ok') await outbox.move(claimed.id, ['credit_due'], 'credited', { updatedAt: now(), lastError: '' });
        else await outbox.move(claimed.id, ['credit_due'], 'credit_due', { updatedAt: now(), lastError: reasonOf(answer) });
        return true;
      }
      default:
        return false;
    }
  }

  /** The dealer's purchase of a debited stake: `dealt`, or refused and rolled back. */
  private async deal(debited: WalletTx, request: PurchaseRequest): Promise<PurchaseResult> {
    const { outbox, now } = this.options;
    // An error here (the store unreachable) leaves the debit `debited`: the sender deals it later.
    const result = await this.options.sales.purchase(request);
    if (result.ok) {
      await outbox.move(debited.id, ['debited'], 'dealt', { updatedAt: now(), unitId: result.sale.unitId });
      return result;
    }
    await this.rollBack(debited, ['debited'], result.code);
    return result;
  }

  /** Moves a debit to `rollback_due` (from `from`) and sends its rollback once now; the sender retries. */
  private async rollBack(tx: WalletTx, from: WalletTx['state'][], reason: string): Promise<Refused> {
    const { outbox, now } = this.options;
    const due = await outbox.move(tx.id, from, 'rollback_due', { updatedAt: now(), lastError: reason, nextAttemptAt: now() + retryDelayMs(1) });
    if (due) await this.sendRollback(due).catch((err: unknown) => this.options.failed?.(due, err));
    return refusal('wallet/undecided', `the operator's wallet did not settle the stake's debit (${reason}): it is rolled back, and nothing was bought`);
  }

  private async sendRollback(tx: WalletTx): Promise<void> {
    const { outbox, now } = this.options;
    const answer = await this.walletCall(tx.player, tx.attempts > 1, () => this.options.wallet.rollback({ transactionId: rollbackTxId(tx.id), referenceTransactionId: tx.id, player: tx.player, round: tx.round, currency: 'EUR' }));
    // Only an acknowledgement ends it: a refusal of a rollback is sent again (and said, in lastError).
    if (answer.kind === 'ok') await outbox.move(tx.id, ['rollback_due'], 'rolled_back', { updatedAt: now(), lastError: '' });
    else await outbox.move(tx.id, ['rollback_due'], 'rollback_due', { updatedAt: now(), lastError: reasonOf(answer) });
  }

  /**
   * A purchase whose debit was asked before (a retry, or two processes at once): its answer,
   * once the debit in hand elsewhere is settled (waited for at most the wallet's timeout, then
   * `wallet/pending`: its process may have died, and the sender settles it).
   */
  private async again(known: WalletTx, request: PurchaseRequest): Promise<PurchaseResult> {
    let tx = known;
    for (let looks = this.looksWithinTimeout; looks > 0 && (tx.state === 'debiting' || tx.state === 'debited'); looks--) {
      await pause();
      tx = (await this.options.outbox.get(tx.id)) ?? tx;
    }
    switch (tx.state) {
      case 'dealt':
        // The dealer answers the sale it made for this request id.
        return this.options.sales.purchase({ ...request, now: tx.createdAt });
      case 'refused':
        return operatorRefusal(tx.lastError, 'the operator refused this stake');
      case 'debiting':
      case 'debited':
        return refusal('wallet/pending', 'this purchase is being settled with the operator’s wallet: ask again in a moment');
      default:
        return refusal('wallet/undecided', 'this purchase’s debit was rolled back: nothing was bought');
    }
  }

  /**
   * A call to the operator's wallet for `player`. The balance its answer carries is the one just
   * after that call: it is shown (`wallet`, for a second) only if no other call of the player's
   * went out from this process meanwhile, and if the answer cannot be a replay — a call sent
   * again (`sentBefore`) is answered as the first time, with that time's balance. Otherwise the
   * balance shown is asked again.
   */
  private async walletCall(player: string, sentBefore: boolean, call: () => Promise<WalletAnswer>): Promise<WalletAnswer> {
    const calls = this.calls.get(player) ?? { sent: 0, inFlight: 0 };
    this.calls.set(player, calls);
    const alone = calls.inFlight === 0;
    const mine = ++calls.sent;
    calls.inFlight++;
    try {
      const answer = await call();
      if (alone && calls.sent === mine && !sentBefore) this.remember(player, answer);
      else this.balances.delete(player);
      return answer;
    } finally {
      if (--calls.inFlight === 0) this.calls.delete(player);
    }
  }

  private remember(player: string, answer: WalletAnswer): void {
    const balance = answer.kind === 'ok' ? answer.balance : answer.kind === 'refused' ? answer.balance : undefined;
    if (balance === undefined) return;
    this.balances.delete(player);
    this.balances.set(player, { balance, at: this.options.now() });
    if (this.balances.size > BALANCES_KEPT) this.balances.delete(this.balances.keys().next().value!);
  }
}

function reasonOf(answer: WalletAnswer): string {
  return answer.kind === 'refused' ? answer.code : answer.kind === 'undecided' ? answer.reason : '';
}

/** A definite refusal of the operator's, as the player's refusal code. */
function operatorRefusal(code: string, message: string): Refused {
  if (code === 'player_blocked') return refusal('wallet/player_blocked', message);
  if (code === 'insufficient_funds') return refusal('purchase/insufficient_funds', message);
  return refusal('wallet/operator_refused', `${code}: ${message}`);
}
