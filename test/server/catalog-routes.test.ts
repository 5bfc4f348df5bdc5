import { strict as assert } from 'node:assert';
import { get, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { gameCatalog } from '../../src/games/catalog';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import { GAME_IDS } from '../../src/games/types';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { RunningServer } from '../../src/server/app';
import { startTestServer } from '../support/game-server';

/** `GET path` with these request headers: the response's headers and its bytes as sent (not decoded). */
function raw(port: number, path: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('catalog routes', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.stop();
  });

  it('answers the game catalog to anyone: every game at every price, its prize table and totals', async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/games`);
    assert.equal(res.status, 200);
    const catalog = (await res.json()) as GameCatalogEntry[];
    assert.deepEqual(catalog.map((g) => g.id), [...GAME_IDS]);
    const listed = catalog.flatMap((g) => g.prices.map((p) => ({ game: g.id, ...p })));
    assert.equal(listed.length, PRIZE_TABLES.length);
    for (const table of PRIZE_TABLES) {
      const price = listed.find((p) => p.game === table.game && p.stake === table.stake);
      assert.ok(price, `${table.game} at ${table.stake}`);
      assert.equal(price.blockSize, table.blockSize);
      assert.deepEqual(price.tiers.map((t) => [t.prize, t.count]), table.tiers.map((t) => [t.prize, t.count]));
      assert.deepEqual(price.tiers.map((t) => t.tierId), table.tiers.map((_, i) => i + 1));
      let total = 0;
      let winners = 0;
      for (const tier of table.tiers) {
        total += tier.prize * tier.count;
        winners += tier.count;
      }
      assert.equal(price.totalPayout, total);
      assert.equal(price.winningUnits, winners);
    }
    assert.deepEqual(catalog, gameCatalog(() => ({ unitMs: 0, stepMs: 0 })), 'the catalog itself, as JSON, with the pace the test server is set to');
  });

  it('sends the catalog compressed, brotli or gzip as the browser takes it, at most a third of its plain size; plain JSON to a client that takes neither', async () => {
    const plain = await raw(server.port, '/games', { 'accept-encoding': 'identity' });
    assert.equal(plain.headers['content-encoding'], undefined);
    const json = plain.bytes.toString();
    assert.ok(JSON.parse(json).length > 0);
    // What Chromium sends: gzip named first, brotli taken first.
    const br = await raw(server.port, '/games', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(br.headers['vary'] ?? '', /accept-encoding/i);
    assert.match(br.headers['content-type'] ?? '', /^application\/json/);
    assert.equal(brotliDecompressSync(br.bytes).toString(), json);
    const gzip = await raw(server.port, '/games', { 'accept-encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.bytes).toString(), json);
    assert.ok(br.bytes.length * 3 <= plain.bytes.length, `brotli: ${br.bytes.length} of ${plain.bytes.length} bytes`);
    assert.ok(gzip.bytes.length * 3 <= plain.bytes.length, `gzip: ${gzip.bytes.length} of ${plain.bytes.length} bytes`);
  });
});
