import { strict as assert } from 'node:assert';
import { Keyring } from '../../src/archive/seal';
import { verifyArchive } from '../../src/archive/verify';
import { devLogin, startTestServer } from '../support/game-server';
import { tempDir } from './support/archive-fixture';

describe('the embedded server with ARCHIVE_DIR', () => {
  it('archives its wallets\' money, drains on stop, and publishes the key its seals verify with', async function () {
    this.timeout(60_000);
    const { dir, remove } = await tempDir();
    try {
      const server = await startTestServer({ ARCHIVE_DIR: dir, ARCHIVE_SEAL_SECONDS: '3600' });
      let published: Keyring;
      let playerId: string;
      try {
        ({ playerId } = await devLogin(server));
        const res = await fetch(`http://127.0.0.1:${server.port}/archive/key`);
        assert.equal(res.status, 200);
        published = Keyring.parse(await res.text());
      } finally {
        await server.stop();
      }
      const { problems, records } = await verifyArchive(dir, { keyring: published });
      assert.deepEqual(problems, []);
      assert.deepEqual(records.get('money')!.filter((r) => r.player === playerId).map((r) => r.kind), ['deposit'], 'the dev login\'s deposit, drained on stop');
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
