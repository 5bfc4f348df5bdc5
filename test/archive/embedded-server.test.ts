import { strict as assert } from 'node:assert';
import { Keyring } from '../../src/archive/seal';
import { verifyArchive } from '../../src/archive/verify';
import { NOEL_TABLES } from '../../src/games/noel-de-la-chance/prize-table';
import { devLogin, record, startTestServer } from '../support/game-server';
import { tempDir } from './support/archive-fixture';

describe('the embedded server with ARCHIVE_DIR', () => {
  it('archives its wallets\' money, drains on stop, and publishes the key its seals verify with', async function () {
    this.timeout(60_000);
    const { dir, remove } = await tempDir();
    try {
      const server = await startTestServer({ ARCHIVE_DIR: dir, ARCHIVE_SEAL_SECONDS: '3600' });
      let published: Keyring;
      let playerId: string;
      let unitId: string;
      try {
        const player = await devLogin(server);
        playerId = player.playerId;
        const room = await player.client.create('table', { game: 'noel-de-la-chance' });
        await record(room).next('wallet');
        const stake = NOEL_TABLES[0]!.stake;
        await room.request('buy', { stake: 7, requestId: 'refused' }).catch(() => undefined);
        ({ unitIds: [unitId] } = (await room.request('buy', { stake, requestId: 'traced' })) as { unitIds: [string] });
        await room.leave();
        const res = await fetch(`http://127.0.0.1:${server.port}/archive/key`);
        assert.equal(res.status, 200);
        published = Keyring.parse(await res.text());
      } finally {
        await server.stop();
      }
      const { problems, records } = await verifyArchive(dir, { keyring: published });
      assert.deepEqual(problems, []);
      assert.deepEqual(records.get('money')!.filter((r) => r.player === playerId).map((r) => r.kind), ['deposit', 'protection', 'stake'], 'drained on stop (the dev login\'s deposit, the harness\'s weekly limit, the stake)');
      const play = records.get('play')!.filter((r) => r.player === playerId);
      assert.deepEqual(play.map((r) => r.kind), ['sign_in', 'buy', 'buy']);
      assert.ok(play.every((r) => r.session !== '' && r.table !== '' && r.process !== ''), 'session, table and process named');
      assert.match(String(play[1]!.payload['refused']), /^purchase\//, 'a stake that is no price, refused');
      assert.deepEqual((play[2]!.payload['reply'] as { unitIds: string[] }).unitIds, [unitId!]);
    } finally {
      await remove();
    }
  });

  it('publishes no key when the archive is off', async function () {
    this.timeout(60_000);
    const server = await startTestServer();
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/archive/key`);
      assert.deepEqual(await res.json(), { keys: [] });
    } finally {
      await server.stop();
    }
  });
});
