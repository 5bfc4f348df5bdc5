import { strict as assert } from 'node:assert';
import type { RunningServer } from '../../src/server/app';
import { decodedUnits, devLogin, record, startTestServer, until } from '../support/game-server';

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('abandoned units', function () {
  this.timeout(30_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer({ ABANDON_AFTER_SECONDS: '1', SWEEP_EVERY_SECONDS: '1', DEMO_BALANCE_CENTS: '1000' });
  });
  after(async () => {
    await server.stop();
  });

  it('are finished by the server after the delay, through the player’s open table, the prize credited exactly once', async () => {
    const player = await devLogin(server);
    const room = await player.client.create('table', { game: 'noel-de-la-chance' });
    record(room);
    const { unitIds } = (await room.request('buy', { stake: 100, requestId: 'left_alone' })) as { unitIds: string[] };
    const unitId = unitIds[0]!;
    // The player never picks a symbol: the server picks from the seed and reveals.
    await waitFor(async () => (await server.services.dealer.sales.getSale(unitId))?.settledAt !== undefined, 'the server to finish the unit');
    const recall = (await server.services.play.recall(player.playerId, unitId))?.record;
    assert.equal(recall!.status, 'finished');
    assert.equal(recall!.completedBy, 'server');
    const prize = recall!.prize!;
    const journal = await server.services.dealer.wallets.journal(player.playerId);
    assert.equal(journal.filter((e) => e.kind === 'prize' && e.ref === unitId).length, prize > 0 ? 1 : 0);
    assert.equal(await server.services.dealer.wallets.balance(player.playerId), 1000 - 100 + prize);

    // The table was told: it shows the server's step and the prize without the player asking.
    await until(room, () => decodedUnits(room)[0]!.status === 'finished', 'the table to show the finished unit');
    const [unit] = decodedUnits(room);
    assert.equal(unit!.prize, prize);
    assert.equal(unit!.steps.at(-1)!.by, 'server');
    await assert.rejects(room.request('act', { action: { type: 'pick', symbol: 'star' } }), (err: unknown) => /action\/no_unit/.test(JSON.stringify(err)));
    // Nothing is left for a later sweep.
    assert.deepEqual(await server.services.play.abandoned(1000), []);
    assert.equal(await server.services.dealer.wallets.balance(player.playerId), 1000 - 100 + prize);
    await room.leave();
  });

  it('leave a unit the player is playing alone', async () => {
    const player = await devLogin(server);
    const room = await player.client.create('table', { game: '500000-carats' });
    record(room);
    await room.request('buy', { stake: 500, requestId: 'busy' });
    for (let i = 0; i < 8; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await room.request('act', { action: i === 0 ? { type: 'reveal_winning' } : { type: 'reveal', index: i } });
    }
    const [unit] = decodedUnits(room);
    assert.equal(unit!.status, 'in_progress');
    assert.ok(unit!.steps.every((s) => s.by !== 'server'));
    await room.leave();
  });
});
