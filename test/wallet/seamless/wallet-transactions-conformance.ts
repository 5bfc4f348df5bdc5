import { strict as assert } from 'node:assert';
import { creditTxId, debitTxId, rollbackTxId, type WalletTransactions, type WalletTx } from '../../../src/wallet/seamless/wallet-transactions';

/** The one suite every WalletTransactions passes: `open(handles)` gives views of one fresh outbox. */
export type OutboxFactory = (handles: number) => Promise<{ outboxes: WalletTransactions[]; close(): Promise<void> }>;

const T0 = 1_700_000_000_000;

function debit(player: string, requestId: string, extra: Partial<WalletTx> = {}): WalletTx {
  return {
    id: debitTxId(player, requestId), kind: 'debit', player, round: requestId, game: 'rain-diamonds', amount: 200, state: 'debiting',
    createdAt: T0, updatedAt: T0, attempts: 0, nextAttemptAt: T0 + 35_000, unitId: '', purchase: '{}', lastError: '', ...extra,
  };
}

export function walletTransactionsConformance(name: string, open: OutboxFactory): void {
  describe(`seamless wallet outbox (${name})`, () => {
    let close: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });
    async function outboxes(handles = 1): Promise<WalletTransactions[]> {
      const opened = await open(handles);
      close = opened.close;
      return opened.outboxes;
    }

    it('names one debit per player and request id, its rollback after it, and one credit per unit', () => {
      assert.equal(debitTxId('p1', 'r1'), debitTxId('p1', 'r1'));
      assert.notEqual(debitTxId('p1', 'r1'), debitTxId('p2', 'r1'));
      assert.notEqual(debitTxId('p1', 'r1'), debitTxId('p1', 'r2'));
      assert.match(debitTxId('p1', 'r1'), /^d-[0-9a-f]{32}$/);
      assert.equal(rollbackTxId(debitTxId('p1', 'r1')), `r-${debitTxId('p1', 'r1').slice(2)}`);
      assert.match(creditTxId('b1:7'), /^c-[0-9a-f]{32}$/);
    });

    it('adds a record once, and reads it back whole', async () => {
      const [outbox] = await outboxes();
      const tx = debit('p1', 'r1', { purchase: '{"picks":"[1,2]"}', lastError: 'x' });
      assert.equal(await outbox!.add(tx), true);
      assert.equal(await outbox!.add({ ...tx, amount: 999 }), false);
      assert.deepEqual(await outbox!.get(tx.id), tx);
      assert.equal(await outbox!.get(debitTxId('p1', 'other')), undefined);
    });

    it('moves a record only from the states expected, and with the attempts expected', async () => {
      const [outbox] = await outboxes();
      const tx = debit('p1', 'r1');
      await outbox!.add(tx);
      assert.equal(await outbox!.move(tx.id, ['debited'], 'dealt', { updatedAt: T0 + 1 }), undefined, 'not in that state');
      assert.equal(await outbox!.move(tx.id, ['debiting'], 'rollback_due', { updatedAt: T0 + 1 }, 3), undefined, 'not those attempts');
      const moved = await outbox!.move(tx.id, ['debiting', 'debited'], 'debited', { updatedAt: T0 + 2, attempts: 1, nextAttemptAt: T0 + 40_000 }, 0);
      assert.deepEqual(moved, { ...tx, state: 'debited', updatedAt: T0 + 2, attempts: 1, nextAttemptAt: T0 + 40_000 });
      assert.deepEqual(await outbox!.get(tx.id), moved);
      assert.equal(await outbox!.move(debitTxId('p9', 'r9'), ['debiting'], 'dealt', { updatedAt: T0 }), undefined, 'no such record');
    });

    it('lets one of many processes racing win a claim', async () => {
      const handles = await outboxes(4);
      const tx = debit('p1', 'r1');
      await handles[0]!.add(tx);
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) =>
        handles[i % 4]!.move(tx.id, ['debiting'], 'debiting', { updatedAt: T0 + i, attempts: 1, nextAttemptAt: T0 + 1000 }, 0)));
      assert.equal(claims.filter((c) => c !== undefined).length, 1);
    });

    it('gives the records due, not the final ones nor those due later', async () => {
      const [outbox] = await outboxes();
      const due = debit('p1', 'r1', { nextAttemptAt: T0 + 10 });
      const later = debit('p1', 'r2', { nextAttemptAt: T0 + 100 });
      const credit: WalletTx = { ...debit('p2', 'r3'), id: creditTxId('b:1'), kind: 'credit', state: 'credit_due', nextAttemptAt: T0, unitId: 'b:1' };
      for (const tx of [due, later, credit]) await outbox!.add(tx);
      assert.deepEqual((await outbox!.due(T0 + 50, 10)).map((tx) => tx.id).sort(), [due.id, credit.id].sort());
      await outbox!.move(credit.id, ['credit_due'], 'credited', { updatedAt: T0 + 1 });
      assert.deepEqual((await outbox!.due(T0 + 50, 10)).map((tx) => tx.id), [due.id], 'paid: no longer due');
      await outbox!.move(due.id, ['debiting'], 'rollback_due', { updatedAt: T0 + 1, nextAttemptAt: T0 + 200 });
      assert.deepEqual((await outbox!.due(T0 + 150, 10)).map((tx) => tx.id), [later.id], 'moved later');
      assert.equal((await outbox!.due(T0 + 500, 1)).length, 1, 'at most the limit');
    });

    it('gives the earliest time a record not final is due: none when every record is final', async () => {
      const [outbox] = await outboxes();
      assert.equal(await outbox!.earliestDue(), undefined);
      const txs = [30, 10, 20].map((at, i) => debit('p1', `r${i}`, { nextAttemptAt: T0 + at }));
      for (const tx of txs) await outbox!.add(tx);
      assert.equal(await outbox!.earliestDue(), T0 + 10);
      await outbox!.move(txs[1]!.id, ['debiting'], 'rollback_due', { updatedAt: T0 + 1, nextAttemptAt: T0 + 40 });
      assert.equal(await outbox!.earliestDue(), T0 + 20, 'put off');
      await outbox!.move(txs[2]!.id, ['debiting'], 'refused', { updatedAt: T0 + 1 });
      assert.equal(await outbox!.earliestDue(), T0 + 30, 'final: no longer waiting');
      for (const tx of [txs[0]!, txs[1]!]) await outbox!.move(tx.id, ['debiting', 'rollback_due'], 'rolled_back', { updatedAt: T0 + 2 });
      assert.equal(await outbox!.earliestDue(), undefined);
    });

    it("holds a player's debit slot for one debit at a time, freed only by that debit, for other players free", async () => {
      const [a, b] = await outboxes(2);
      const [first, second] = [debitTxId('p1', 'r1'), debitTxId('p1', 'r2')];
      assert.equal(await a!.claimDebitSlot('p1', first, T0, 60_000), true);
      assert.equal(await b!.claimDebitSlot('p1', second, T0, 60_000), false, 'another debit of the player waits');
      assert.equal(await b!.claimDebitSlot('p1', first, T0, 60_000), true, 'the debit holding it takes it again');
      assert.equal(await b!.claimDebitSlot('p2', second, T0, 60_000), true, 'another player has a slot of their own');
      await b!.releaseDebitSlot('p1', second);
      assert.equal(await a!.claimDebitSlot('p1', second, T0, 60_000), false, 'a debit not holding it does not free it');
      await b!.releaseDebitSlot('p1', first);
      assert.equal(await a!.claimDebitSlot('p1', second, T0, 60_000), true, 'freed by its debit');
    });

    it('lets one of many processes racing take a free slot', async () => {
      const handles = await outboxes(4);
      const taken = await Promise.all(Array.from({ length: 12 }, (_, i) => handles[i % 4]!.claimDebitSlot('p1', debitTxId('p1', `r${i}`), T0, 60_000)));
      assert.equal(taken.filter(Boolean).length, 1);
    });

    it('frees the slot of a debit whose process died once its life is over', async () => {
      const [outbox] = await outboxes();
      assert.equal(await outbox!.claimDebitSlot('p1', debitTxId('p1', 'r1'), Date.now(), 100), true);
      assert.equal(await outbox!.claimDebitSlot('p1', debitTxId('p1', 'r2'), Date.now(), 100), false);
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal(await outbox!.claimDebitSlot('p1', debitTxId('p1', 'r2'), Date.now(), 100), true);
    });

    it('lists the records created in a span, oldest first, whatever their state', async () => {
      const [outbox] = await outboxes();
      const txs = [3, 1, 2, 5].map((i) => debit('p1', `r${i}`, { createdAt: T0 + i }));
      for (const tx of txs) await outbox!.add(tx);
      await outbox!.move(txs[0]!.id, ['debiting'], 'refused', { updatedAt: T0 + 9 });
      assert.deepEqual((await outbox!.created(T0 + 1, T0 + 5)).map((tx) => tx.round), ['r1', 'r2', 'r3']);
    });
  });
}
