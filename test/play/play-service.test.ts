import { strict as assert } from 'node:assert';
import { MemoryStore } from '../../src/dealer/memory/store';
import type { Sales } from '../../src/dealer/types';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import { rulesOf } from '../../src/games/registry';
import { PlayService } from '../../src/play/play-service';
import { ProtectionService } from '../../src/play/protection-service';
import { MemoryActionLog } from '../../src/action-log/action-log';
import { DealerMoney, type PlayerMoney } from '../../src/wallet/player-money';

/** A demo player that takes the first option of every choice: the same play each run. */
const first = (): number => 0;

async function setUp(now = () => 1_000_000) {
  const dealer = new MemoryStore();
  for (const table of PRIZE_TABLES) {
    await dealer.emissions.openEmission({ emissionId: `${table.game}-${table.stake}`, table, blockCount: 1, now: now() });
  }
  const play = new PlayService(dealer, new MemoryActionLog(), now);
  return { dealer, play };
}

describe('play service', () => {
  it('recalls every finished unit with a scenario that re-scores, by the rules, to its prize', async () => {
    const { dealer, play } = await setUp();
    const player = { playerId: 'p1', pseudonym: 'P' };
    await dealer.wallets.deposit('p1', 100_000, 'd1', 0);
    for (const table of PRIZE_TABLES) {
      for (let i = 0; i < 5; i++) {
        const bought = await play.buy(player, { game: table.game, stake: table.stake, requestId: `${table.game.replace(/\W/g, '_')}_${table.stake}_${i}`, picks: rulesOf(table.game).demoPicks(first, 1) });
        assert.ok(bought.ok, JSON.stringify(bought));
        let unit = bought.units[0]!;
        for (const action of rulesOf(table.game).demoScript(first, { auto: false })) {
          if (unit.finished) break;
          const acted = await play.act('p1', [unit], { action });
          assert.equal(acted.refusal, undefined, JSON.stringify(acted.refusal));
          unit = acted.units[0]!;
        }
        const { record } = (await play.recall('p1', unit.sale.unitId))!;
        assert.equal(record.status, 'finished');
        assert.equal(rulesOf(table.game).evaluate(record.scenario), record.prize);
        assert.deepEqual(record.steps, unit.steps.map((s) => ({ ...s, at: new Date(s.at).toISOString() })), 'the recall replays what was played');
      }
    }
  });

  it('refuses another player’s action on a unit and a second action built on a stale unit', async () => {
    const { dealer, play } = await setUp();
    await dealer.wallets.deposit('p1', 1_000, 'd1', 0);
    const bought = await play.buy({ playerId: 'p1', pseudonym: 'P' }, { game: '500000-carats', stake: 500, requestId: 'r1' });
    assert.ok(bought.ok);
    const units = bought.units;
    const stranger = await play.act('p2', units, { action: { type: 'auto' } });
    assert.equal(stranger.refusal?.code, 'action/not_yours');
    const first = await play.act('p1', units, { action: { type: 'reveal_winning' } });
    assert.equal(first.refusal, undefined);
    assert.equal(first.units[0]!.steps.length, 2);
    // The same starting point again, as a second process would have it: the log refuses it,
    // and the unit comes back as it stands.
    const stale = await play.act('p1', units, { action: { type: 'reveal_winning' } });
    assert.equal(stale.refusal?.code, 'action/conflict');
    assert.equal(stale.units[0]!.steps.length, 2, 'reloaded');
    assert.equal((await play.load(units[0]!.sale.unitId))!.steps.length, 2);
  });

  it('refuses a purchase while a unit of the same game is unfinished, but not of another game', async () => {
    const { dealer, play } = await setUp();
    const player = { playerId: 'p1', pseudonym: 'P' };
    await dealer.wallets.deposit('p1', 1_000, 'd1', 0);
    assert.ok((await play.buy(player, { game: 'rain-diamonds', stake: 50, requestId: 'a' })).ok);
    const again = await play.buy(player, { game: 'rain-diamonds', stake: 50, requestId: 'b' });
    assert.equal(!again.ok && again.code, 'purchase/unfinished_unit');
    assert.ok((await play.buy(player, { game: 'mysteres-de-la-lampe', stake: 50, requestId: 'c', picks: [{ kind: 'colour', choice: 'red' }] })).ok);
    assert.deepEqual(await play.wallet('p1'), { balance: 900, held: 100 });
  });

  it('refuses two lamp picks of the same kind and picks for games without', async () => {
    const { dealer, play } = await setUp();
    const player = { playerId: 'p1', pseudonym: 'P' };
    await dealer.wallets.deposit('p1', 1_000, 'd1', 0);
    const twoColours = await play.buy(player, { game: 'mysteres-de-la-lampe', stake: 50, requestId: 'a', picks: [{ kind: 'colour', choice: 'red' }, { kind: 'colour', choice: 'blue' }] });
    assert.equal(!twoColours.ok && twoColours.code, 'picks/malformed');
    const picksOnRain = await play.buy(player, { game: 'rain-diamonds', stake: 50, requestId: 'b', picks: { any: 1 } });
    assert.equal(picksOnRain.ok, false);
    assert.equal(await dealer.wallets.balance('p1'), 1_000);
  });

  it('finds only units untouched for the delay, and completes each once', async () => {
    let clock = 1_000_000;
    const { dealer, play } = await setUp(() => clock);
    await dealer.wallets.deposit('p1', 1_000, 'd1', 0);
    const bought = await play.buy({ playerId: 'p1', pseudonym: 'P' }, { game: 'noel-de-la-chance', stake: 50, requestId: 'r1' });
    assert.ok(bought.ok);
    clock += 500;
    assert.deepEqual(await play.abandoned(1_000), []);
    clock += 600;
    const [abandoned] = await play.abandoned(1_000);
    assert.equal(abandoned?.sale.unitId, bought.units[0]!.sale.unitId);
    const completed = await play.complete(abandoned!);
    assert.ok(completed.ok);
    assert.equal(completed.unit.finished, true);
    assert.equal(completed.ended.length, 1, 'ended, and told, once');
    assert.deepEqual(await play.abandoned(1_000), []);
    const again = await play.complete(completed.unit);
    assert.ok(again.ok);
    assert.deepEqual(again.ended, [], 'settled already: nothing to tell');
    assert.equal(await dealer.wallets.balance('p1'), 1_000 - 50 + completed.unit.sale.prize);
  });

  it('reveals the units of one purchase together: one rub opens both lamp units', async () => {
    const { dealer, play } = await setUp();
    await dealer.wallets.deposit('p1', 1_000, 'd1', 0);
    const bought = await play.buy({ playerId: 'p1', pseudonym: 'P' }, { game: 'mysteres-de-la-lampe', stake: 50, requestId: 'both', picks: [{ kind: 'colour', choice: 'red' }, { kind: 'symbol', choice: 'moon' }] });
    assert.ok(bought.ok);
    assert.equal(bought.units.length, 2);
    const one = await play.act('p1', bought.units, { action: { type: 'rub', progress: 50 }, unitId: bought.units[0]!.sale.unitId });
    assert.equal(one.refusal?.code, 'action/together', 'one lamp unit alone is not rubbed');
    const rubbed = await play.act('p1', bought.units, { action: { type: 'rub', progress: 100 } });
    assert.equal(rubbed.refusal, undefined);
    assert.deepEqual(rubbed.units.map((u) => u.finished), [true, true], 'the lamp opens once for both');
    assert.equal(rubbed.ended.length, 2);
    assert.deepEqual(rubbed.wallet, { balance: 1_000 - 100 + rubbed.units[0]!.sale.prize + rubbed.units[1]!.sale.prize, held: 0 });
  });

  it("answers a lamp purchase whose second unit is still being settled with the operator's wallet as undecided, and its retry with both units", async () => {
    const dealer = new MemoryStore();
    const lamp = PRIZE_TABLES.find((t) => t.game === 'mysteres-de-la-lampe')!;
    await dealer.emissions.openEmission({ emissionId: 'lamp', table: lamp, blockCount: 1, now: 1_000_000 });
    await dealer.wallets.deposit('p1', 1_000, 'd1', 0);
    // The second unit's debit is in another process's hands the first time it is asked.
    const dealerMoney = new DealerMoney(dealer);
    let askedSecond = 0;
    const money: PlayerMoney = {
      wallet: dealerMoney.wallet.bind(dealerMoney),
      settle: dealerMoney.settle.bind(dealerMoney),
      purchase: async (request) =>
        request.requestId.endsWith('1') && askedSecond++ === 0 ? { ok: false, code: 'wallet/pending', message: 'in hand elsewhere' } : dealerMoney.purchase(request),
    };
    const play = new PlayService(dealer, new MemoryActionLog(), () => 1_000_000, undefined, null, money);
    const buy = () => play.buy({ playerId: 'p1', pseudonym: 'P' }, { game: 'mysteres-de-la-lampe', stake: 50, requestId: 'both', picks: [{ kind: 'colour', choice: 'red' }, { kind: 'symbol', choice: 'moon' }] });
    const first = await buy();
    assert.equal(first.ok ? 'bought' : first.code, 'wallet/pending', 'not the first unit alone: the second may yet be dealt');
    const retried = await buy();
    assert.ok(retried.ok);
    assert.equal(retried.units.length, 2);
  });

  describe('a unit whose process died between its last action and its credit', () => {
    /** Plays a Noël unit to its end with a store that dies at the credit; returns the stores. */
    async function strand() {
      const { dealer } = await setUp();
      const log = new MemoryActionLog();
      await dealer.wallets.deposit('p1', 1_000, 'd1', 0);
      const dying = { ...dealer, sales: Object.assign(Object.create(dealer.sales) as Sales, { settle: () => Promise.reject(new Error('killed')) }) };
      const before = new PlayService(dying, log, () => 1_000_000);
      const bought = await before.buy({ playerId: 'p1', pseudonym: 'P' }, { game: 'noel-de-la-chance', stake: 50, requestId: 'r1' });
      assert.ok(bought.ok);
      await assert.rejects(before.act('p1', bought.units, { action: { type: 'pick', symbol: 'bell' } }), /killed/);
      const unitId = bought.units[0]!.sale.unitId;
      assert.equal((await dealer.sales.getSale(unitId))!.settledAt, undefined, 'stranded: logged to its end, not credited');
      // The process comes back: a new play service over the same stores.
      return { dealer, unitId, after: new PlayService(dealer, log, () => 2_000_000) };
    }

    it('is settled when its player comes back to the game, and the player may buy at once', async () => {
      const { dealer, unitId, after } = await strand();
      const prize = (await dealer.sales.getSale(unitId))!.prize;
      const resumed = await after.resume('p1', 'noel-de-la-chance');
      assert.deepEqual(resumed.units.map((u) => [u.sale.unitId, u.finished]), [[unitId, true]], 'shown, finished');
      assert.deepEqual(resumed.ended.map((e) => [e.unit.sale.unitId, e.by]), [[unitId, 'server']], 'to publish, once');
      assert.deepEqual(await after.wallet('p1'), { balance: 1_000 - 50 + prize, held: 0 });
      assert.ok((await after.buy({ playerId: 'p1', pseudonym: 'P' }, { game: 'noel-de-la-chance', stake: 50, requestId: 'r2' })).ok);
    });

    it('is settled when its history or its recall is read first, and they agree with the wallet', async () => {
      const { dealer, unitId, after } = await strand();
      const prize = (await dealer.sales.getSale(unitId))!.prize;
      const history = await after.history('p1', 0, 10);
      assert.equal(history.ended.length, 1);
      const line = history.sales.find((s) => s.unitId === unitId)!;
      assert.notEqual(line.settledAt, undefined, 'history says finished');
      const recalled = (await after.recall('p1', unitId))!;
      assert.deepEqual(recalled.ended, [], 'settled once');
      assert.equal(recalled.record.status, 'finished');
      const wallet = await after.wallet('p1');
      assert.deepEqual(wallet, { balance: 1_000 - 50 + prize, held: 0 });
      assert.equal(recalled.record.balanceAfterPrize, wallet.balance);
    });
  });
});

describe('play service with the player’s protection', () => {
  const SETTINGS = { realityCheckMs: 60 * 60_000, sessionIdleMs: 30 * 60_000, raiseDelayMs: 48 * 3_600_000 };

  it('journals each purchase refused for the player’s protection with who and when, and not the others', async () => {
    let clock = 1_000_000;
    const now = () => clock;
    const { dealer } = await setUp(now);
    const protection = new ProtectionService(dealer.protections, SETTINGS, now);
    const play = new PlayService(dealer, new MemoryActionLog(), now, protection);
    const player = { playerId: 'p1', pseudonym: 'P' };
    const buy = (requestId: string) => play.buy(player, { game: '500000-carats', stake: 500, requestId });
    await dealer.wallets.deposit('p1', 400, 'd1', 0);
    for (const requestId of ['r1', 'r1']) {
      const refused = await buy(requestId);
      assert.ok(!refused.ok);
      assert.equal(refused.code, 'limit/not_set');
    }
    clock += 1000;
    await protection.exclude('p1', '24h');
    clock += 1000;
    const excluded = await buy('r2');
    assert.ok(!excluded.ok);
    assert.equal(excluded.code, 'protection/excluded');
    assert.deepEqual(excluded.details, { until: 1_001_000 + 24 * 3_600_000 });
    const { history } = await protection.state('p1');
    assert.deepEqual(history.map((c) => [c.what, c.by, c.code, c.count, c.firstAt, c.at]), [
      ['refusal', 'player', 'protection/excluded', 1, 1_002_000, 1_002_000],
      ['exclusion', 'player', undefined, undefined, undefined, 1_001_000],
      ['refusal', 'player', 'limit/not_set', 2, 1_000_000, 1_000_000],
    ]);
    clock += 24 * 3_600_000;
    await protection.setLimits('p1', { stake_week: 10_000 });
    const poor = await buy('r3');
    assert.ok(!poor.ok);
    assert.equal(poor.code, 'purchase/insufficient_funds');
    assert.equal((await protection.state('p1')).history[0]!.what, 'limit', 'a refusal for the balance is not the protection’s');
  });
});

describe('play service on a bounded embedded dealer', () => {
  it('answers the recall of a forgotten unit as not found, and lists only the units kept', async () => {
    const log = new MemoryActionLog();
    const dealer = new MemoryStore({ keepSettled: { perPlayer: 2, total: 100 }, forgotten: (ids) => log.forget(ids) });
    const table = PRIZE_TABLES.find((t) => t.game === 'noel-de-la-chance')!;
    await dealer.emissions.openEmission({ emissionId: 'noel', table, blockCount: 1, now: 0 });
    await dealer.wallets.deposit('p1', 100_000, 'd1', 0);
    const play = new PlayService(dealer, log, () => 1_000_000);
    const unitIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const bought = await play.buy({ playerId: 'p1', pseudonym: 'P' }, { game: table.game, stake: table.stake, requestId: `r${i}` });
      assert.ok(bought.ok, JSON.stringify(bought));
      const acted = await play.act('p1', bought.units, { action: { type: 'pick', symbol: 'star' } });
      assert.ok(acted.units[0]!.finished);
      unitIds.push(bought.units[0]!.sale.unitId);
    }
    assert.equal(await play.recall('p1', unitIds[0]!), undefined);
    assert.deepEqual(await log.read(unitIds[0]!), [], 'its action log went with it');
    assert.equal((await play.recall('p1', unitIds[2]!))?.record.status, 'finished');
    assert.deepEqual((await play.history('p1', 0, 20)).sales.map((s) => s.unitId), [unitIds[2], unitIds[1]]);
  });
});
