import { strict as assert } from 'node:assert';
import { MemoryStore } from '../../../src/dealer/memory/store';
import type { PurchaseRequest, PurchaseResult, Sale } from '../../../src/dealer/types';
import { limitRefusal, type ProtectionRefusal } from '../../../src/protection/rules';
import { SeamlessMoney, retryDelayMs } from '../../../src/wallet/seamless/seamless-money';
import { creditTxId, debitTxId, MemoryWalletTransactions } from '../../../src/wallet/seamless/wallet-transactions';
import { TEN_UNIT_TABLE } from '../../dealer/support/test-tables';
import { ScriptedWallet } from './scripted-wallet';

const T0 = 1_700_000_000_000;
const GAME = TEN_UNIT_TABLE.game;
const STAKE = TEN_UNIT_TABLE.stake;
const TIMEOUT_MS = 5000;

interface SetupOptions {
  readonly refusal?: ProtectionRefusal;
  /** The player's protection as read before a debit, from the store's sales (instead of `refusal`). */
  readonly protection?: (store: MemoryStore) => Promise<ProtectionRefusal | undefined>;
  readonly opening?: number;
  readonly timeoutMs?: number;
}

async function setup(options: SetupOptions = {}) {
  let clock = T0;
  const store = new MemoryStore({ fundedByOperator: true });
  await store.emissions.openEmission({ emissionId: 'e1', table: TEN_UNIT_TABLE, blockCount: 2, now: T0 });
  const wallet = new ScriptedWallet(options.opening);
  const outbox = new MemoryWalletTransactions();
  const failures: unknown[] = [];
  const make = () => new SeamlessMoney({
    sales: store.sales, wallets: store.wallets, outbox, wallet, now: () => clock, timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
    protectionRefusal: async () => (options.protection ? options.protection(store) : options.refusal), failed: (_tx, err) => failures.push(err),
  });
  let requests = 0;
  const request = (player = 'p1', extra: Partial<PurchaseRequest> = {}): PurchaseRequest => ({ playerId: player, requestId: `r${++requests}`, game: GAME, stake: STAKE, now: clock, ...extra });
  return { store, wallet, outbox, money: make(), make, request, failures, advance: (ms: number) => (clock += ms), now: () => clock };
}

function sold(result: PurchaseResult): Sale {
  if (!result.ok) assert.fail(`refused: ${result.code} ${result.message}`);
  return result.sale;
}

/** The operator's debits wait, unanswered, until the function returned is called. */
function holdDebits(wallet: ScriptedWallet): () => void {
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  const realDebit = wallet.debit.bind(wallet);
  wallet.debit = async (req) => {
    await held;
    return realDebit(req);
  };
  return answer;
}

const soldUnits = async (store: MemoryStore) => (await store.emissions.listEmissions())[0]!.blocks.reduce((n, b) => n + b.sold, 0);

describe('seamless money', () => {
  describe('a purchase', () => {
    it("debits the operator's wallet once, then deals the unit", async () => {
      const { money, wallet, outbox, request } = await setup();
      const r = request();
      const sale = sold(await money.purchase(r));
      assert.equal(wallet.balanceOf('p1'), 10_000 - STAKE);
      const tx = await outbox.get(debitTxId('p1', r.requestId));
      assert.equal(tx?.state, 'dealt');
      assert.equal(tx?.unitId, sale.unitId);
      const again = await money.purchase(r);
      assert.equal(again.ok && again.sale.unitId, sale.unitId, 'a retry answers the same sale');
      assert.equal(wallet.movements.length, 1, 'and debits nothing more');
    });

    it("ends with the operator's refusal, dealing nothing, and answers a retry the same without asking again", async () => {
      const { money, wallet, store, request } = await setup({ opening: STAKE - 1 });
      const r = request();
      const refused = await money.purchase(r);
      assert.equal(refused.ok ? 'sold' : refused.code, 'purchase/insufficient_funds');
      assert.equal(await soldUnits(store), 0);
      const calls = wallet.calls.length;
      const again = await money.purchase(r);
      assert.equal(again.ok ? 'sold' : again.code, 'purchase/insufficient_funds');
      assert.equal(wallet.calls.length, calls);
    });

    it("says whose rule refused: the operator's block, or its own limit", async () => {
      const { money, wallet, request } = await setup();
      wallet.fault('debit', { refuse: 'player_blocked' }, { refuse: 'limit_reached' });
      const blocked = await money.purchase(request());
      assert.equal(blocked.ok ? 'sold' : blocked.code, 'wallet/player_blocked');
      const limited = await money.purchase(request());
      assert.equal(limited.ok ? 'sold' : limited.code, 'wallet/operator_refused');
      assert.match(limited.ok ? '' : limited.message, /limit_reached/);
    });

    it("asks nothing of the operator when the player's protection refuses the stake", async () => {
      const { money, wallet, store, request } = await setup({ refusal: limitRefusal('stake_week', 0, null) });
      const refused = await money.purchase(request());
      assert.equal(refused.ok ? 'sold' : refused.code, 'limit/stake_week');
      assert.deepEqual(wallet.calls, []);
      assert.equal(await soldUnits(store), 0);
    });

    it('rolls back a debit whose answer was lost, and deals nothing', async () => {
      const { money, wallet, outbox, store, request } = await setup();
      wallet.fault('debit', 'apply_then_lose');
      const r = request();
      const refused = await money.purchase(r);
      assert.equal(refused.ok ? 'sold' : refused.code, 'wallet/undecided');
      assert.equal(await soldUnits(store), 0);
      assert.equal(wallet.balanceOf('p1'), 10_000, 'the stake is back');
      assert.equal((await outbox.get(debitTxId('p1', r.requestId)))?.state, 'rolled_back');
      const again = await money.purchase(r);
      assert.equal(again.ok ? 'sold' : again.code, 'wallet/undecided', 'the same request does not buy after its rollback');
    });

    it('rolls back a debit that never arrived, and the operator refuses it if it arrives after', async () => {
      const { money, wallet, request } = await setup();
      wallet.fault('debit', 'lose');
      const r = request();
      await money.purchase(r);
      assert.deepEqual(wallet.movements, [], 'nothing to undo');
      const late = await wallet.debit({ transactionId: debitTxId('p1', r.requestId), player: 'p1', round: r.requestId, game: GAME, amount: STAKE, currency: 'EUR' });
      assert.equal(late.kind === 'refused' && late.code, 'transaction_rolled_back');
    });

    it('sends a rollback again, with back-off, until the operator acknowledges it', async () => {
      const { money, wallet, outbox, request, advance } = await setup();
      wallet.fault('debit', 'apply_then_lose');
      wallet.fault('rollback', 'lose', 'lose');
      const r = request();
      await money.purchase(r);
      const id = debitTxId('p1', r.requestId);
      assert.equal((await outbox.get(id))?.state, 'rollback_due');
      assert.equal(await money.sendDue(), 0, 'not due before its delay');
      advance(retryDelayMs(1));
      assert.equal(await money.sendDue(), 1);
      assert.equal((await outbox.get(id))?.state, 'rollback_due', 'lost again');
      advance(retryDelayMs(2));
      await money.sendDue();
      assert.equal((await outbox.get(id))?.state, 'rolled_back');
      assert.equal(wallet.balanceOf('p1'), 10_000);
    });

    it("asks the operator for one debit of a player at a time: a second purchase waits for the first, and is refused by the limit read after it, with no debit asked", async () => {
      // A weekly limit of one stake, read from what is sold.
      const { wallet, outbox, make, request } = await setup({ protection: async (s) => ((await soldUnits(s)) * STAKE + STAKE > STAKE ? limitRefusal('stake_week', 0, null) : undefined) });
      const answer = holdDebits(wallet);
      const first = make().purchase(request('p1', { requestId: 'a', boughtTogether: ['a'] }));
      await new Promise((resolve) => setTimeout(resolve, 10));
      // Another process, another table: the same player's purchase while the first debit is out.
      const second = make().purchase(request('p1', { requestId: 'b', boughtTogether: ['b'] }));
      await new Promise((resolve) => setTimeout(resolve, 60));
      assert.equal(await outbox.get(debitTxId('p1', 'b')), undefined, 'the second waits, unread and unrecorded');
      answer();
      sold(await first);
      const refused = await second;
      assert.equal(refused.ok ? 'sold' : refused.code, 'limit/stake_week');
      assert.equal(wallet.movements.filter((m) => m.kind === 'debit').length, 1, 'one debit asked');
      assert.equal(await outbox.get(debitTxId('p1', 'b')), undefined, 'nothing to roll back');
    });

    it('answers a retry made while its debit is in hand elsewhere with that purchase’s own unit, once settled', async () => {
      const { wallet, make, request } = await setup();
      const answer = holdDebits(wallet);
      const r = request();
      const first = make().purchase(r);
      await new Promise((resolve) => setTimeout(resolve, 10));
      const retry = make().purchase(r);
      await new Promise((resolve) => setTimeout(resolve, 60));
      answer();
      assert.equal(sold(await retry).unitId, sold(await first).unitId);
      assert.equal(wallet.movements.length, 1);
    });

    it("answers wallet/pending, asking nothing, when another debit of the player stays out past the wallet's timeout; the same request buys once it is back", async () => {
      const { money, wallet, outbox, request, now } = await setup({ timeoutMs: 100 });
      await outbox.claimDebitSlot('p1', debitTxId('p1', 'elsewhere'), now(), 60_000);
      const r = request();
      const waited = await money.purchase(r);
      assert.equal(waited.ok ? 'sold' : waited.code, 'wallet/pending');
      assert.deepEqual(wallet.calls, []);
      await outbox.releaseDebitSlot('p1', debitTxId('p1', 'elsewhere'));
      sold(await money.purchase(r));
    });

    it('rolls back a debit the dealer then refuses (a rule only its atomic step reads: finish the unit first)', async () => {
      const { money, wallet, outbox, request } = await setup();
      const first = sold(await money.purchase(request('p1', { boughtTogether: ['a'], requestId: 'a' })));
      // The unit not finished: the dealer's atomic step refuses the next (finish it first).
      const second = await money.purchase(request('p1', { boughtTogether: ['b'], requestId: 'b' }));
      assert.equal(second.ok ? 'sold' : second.code, 'purchase/unfinished_unit');
      assert.equal((await outbox.get(debitTxId('p1', 'b')))?.state, 'rolled_back');
      assert.equal(wallet.balanceOf('p1'), 10_000 - first.stake);
    });
  });

  describe("the player's wallet", () => {
    it("shows the operator's balance after a purchase without asking again, and asks once it is older", async () => {
      const { money, wallet, store, request, advance } = await setup();
      const sale = sold(await money.purchase(request()));
      const calls = wallet.calls.length;
      assert.deepEqual(await money.wallet('p1'), { balance: 10_000 - STAKE, held: STAKE });
      assert.equal(wallet.calls.length, calls, 'the debit told the balance');
      await store.sales.settle(sale.unitId, T0);
      advance(1000);
      assert.deepEqual(await money.wallet('p1'), { balance: 10_000 - STAKE, held: 0 });
      assert.equal(wallet.calls.at(-1), 'balance p1');
    });
  });

  describe('a process cut in the middle', () => {
    it('rolls back a debit left without its answer, once it is older than the wallet timeout', async () => {
      const { money, wallet, outbox, make, request, advance } = await setup();
      const r = request();
      // The debit is recorded and made, and the process dies before it hears back.
      let release!: () => void;
      const hung = new Promise<void>((resolve) => (release = resolve));
      const realDebit = wallet.debit.bind(wallet);
      wallet.debit = async (req) => {
        await realDebit(req);
        await hung;
        return { kind: 'undecided', reason: 'process gone' };
      };
      void money.purchase(r);
      await new Promise((resolve) => setImmediate(resolve));
      wallet.debit = realDebit;
      const other = make();
      assert.equal(await other.sendDue(), 0, 'still in flight');
      advance(TIMEOUT_MS + 30_000);
      assert.equal(await other.sendDue(), 1);
      assert.equal((await outbox.get(debitTxId('p1', r.requestId)))?.state, 'rolled_back');
      assert.equal(wallet.balanceOf('p1'), 10_000);
      release();
    });

    it('deals the unit of a debit confirmed before the process died', async () => {
      const { wallet, outbox, store, make, request, advance } = await setup();
      const r = request('p1', { picks: '"x"' });
      const id = debitTxId('p1', r.requestId);
      // As a process leaves it when it dies between the debit's answer and the dealer's purchase.
      await outbox.add({
        id, kind: 'debit', player: 'p1', round: r.requestId, game: GAME, amount: STAKE, state: 'debited', createdAt: r.now, updatedAt: r.now, attempts: 1,
        nextAttemptAt: r.now + TIMEOUT_MS + 30_000, unitId: '', purchase: JSON.stringify({ picks: '"x"', boughtTogether: [], protection: null }), lastError: '',
      });
      await wallet.debit({ transactionId: id, player: 'p1', round: r.requestId, game: GAME, amount: STAKE, currency: 'EUR' });
      advance(TIMEOUT_MS + 30_000);
      // Another purchase of the player's is out: the unit is dealt after it, in the player's slot.
      await outbox.claimDebitSlot('p1', debitTxId('p1', 'other'), r.now + TIMEOUT_MS + 30_000, 60_000);
      assert.equal(await make().sendDue(), 0);
      assert.equal((await outbox.get(id))?.state, 'debited');
      await outbox.releaseDebitSlot('p1', debitTxId('p1', 'other'));
      advance(retryDelayMs(2));
      await make().sendDue();
      const tx = await outbox.get(id);
      assert.equal(tx?.state, 'dealt');
      const sale = await store.sales.getSale(tx!.unitId);
      assert.deepEqual([sale?.playerId, sale?.requestId, sale?.picks, sale?.soldAt], ['p1', r.requestId, '"x"', r.now]);
    });
  });

  describe('a prize', () => {
    it('is credited once, whatever the concurrent settlements', async () => {
      const { money, make, wallet, store, request } = await setup();
      const sales: Sale[] = [];
      for (let i = 0; i < 10; i++) sales.push(sold(await money.purchase(request(`p${i}`))));
      const others = [make(), make()];
      await Promise.all(sales.flatMap((sale) => [money, ...others].map((m) => m.settle(sale, T0 + 100))));
      const credits = wallet.movements.filter((m) => m.kind === 'credit');
      assert.deepEqual(credits.map((c) => c.amount).sort(), sales.filter((s) => s.prize > 0).map((s) => s.prize).sort());
      for (const sale of sales) assert.equal(wallet.balanceOf(sale.playerId), 10_000 - STAKE + sale.prize);
      assert.equal(await store.wallets.balance('p0'), sales[0]!.prize - STAKE, "the dealer keeps the net with the operator's wallet");
    });

    it('is sent again until paid, across a restart of the process', async () => {
      const { money, make, wallet, outbox, store, request, advance } = await setup();
      // Seven units of the ten win: the first winner of p1's purchases (the losers settled).
      let sale = sold(await money.purchase(request()));
      while (sale.prize === 0) {
        await store.sales.settle(sale.unitId, T0);
        sale = sold(await money.purchase(request()));
      }
      wallet.fault('credit', 'lose', 'apply_then_lose');
      await money.settle(sale, T0 + 1);
      const id = creditTxId(sale.unitId);
      assert.equal((await outbox.get(id))?.state, 'credit_due');
      const restarted = make();
      advance(retryDelayMs(1));
      await restarted.sendDue();
      assert.equal((await outbox.get(id))?.state, 'credit_due', 'its answer lost: sent again later');
      advance(retryDelayMs(2));
      await restarted.sendDue();
      assert.equal((await outbox.get(id))?.state, 'credited');
      assert.deepEqual(wallet.movements.filter((m) => m.kind === 'credit').map((m) => m.amount), [sale.prize], 'paid once');
    });

    it("shows the player the operator's balance, not the one a credit sent again is answered with (its first time's)", async () => {
      const { money, wallet, outbox, store, request, advance } = await setup();
      let sale = sold(await money.purchase(request()));
      while (sale.prize === 0) {
        await store.sales.settle(sale.unitId, T0);
        sale = sold(await money.purchase(request()));
      }
      // Paid, its answer lost; the player buys again; the credit sent again is answered as the first time.
      wallet.fault('credit', 'apply_then_lose');
      await money.settle(sale, T0 + 1);
      sold(await money.purchase(request()));
      advance(retryDelayMs(1));
      await money.sendDue();
      assert.equal((await outbox.get(creditTxId(sale.unitId)))?.state, 'credited');
      assert.equal((await money.wallet('p1')).balance, wallet.balanceOf('p1'));
    });
  });
});
