import { strict as assert } from 'node:assert';
import { readdir, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { SealingKey } from '../../src/archive/seal';
import { ArchiveWriter } from '../../src/archive/writer';
import { RedisStore } from '../../src/dealer/redis/store';
import { RedisServer } from '../../tools/redis-server';
import { dayFile, openWriter, playedStore, T0, tamper, tempDir } from '../archive/support/archive-fixture';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';
import { runScript } from './run-script';

const KEY = SealingKey.generate();

describe('npm run archive', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => ({ dir, remove } = await tempDir()));
  afterEach(() => remove());

  it('verify: exits 0 on an archive as written, 1 listing each problem with its place', async function () {
    this.timeout(60_000);
    await (await openWriter(dir, await playedStore(6), KEY)).drainAll();
    const clean = await runScript('archive', ['verify', dir]);
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(clean.stdout, /0 problem\(s\)/);
    await tamper(await dayFile(dir, 'money'), (lines) => lines.filter((_, i) => i !== 3));
    const broken = await runScript('archive', ['verify', dir]);
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /money\/2023-11-14\.jsonl\.gz:4: record 4 missing before record 5/);
  });

  it('verify: prints each stream\'s head, and with those as --expect finds the newest batch cut off; a malformed --expect exits 2', async function () {
    this.timeout(60_000);
    await (await openWriter(dir, await playedStore(6), KEY)).drainAll();
    const clean = await runScript('archive', ['verify', dir]);
    const heads = /^heads: (.*)$/m.exec(clean.stdout)?.[1]?.split(' ') ?? [];
    assert.ok(heads.includes('--expect') && heads.some((h) => /^money:\d+:[0-9a-f]{64}$/.test(h)), clean.stdout);
    await tamper(await dayFile(dir, 'money'), (lines) => lines.slice(0, lines.findIndex((l) => l.includes('"t":"s"')) + 1));
    await unlink(join(dir, 'money', 'state.json'));
    assert.equal((await runScript('archive', ['verify', dir])).code, 0, 'without the heads, a cut end goes unseen');
    const cut = await runScript('archive', ['verify', dir, ...heads]);
    assert.equal(cut.code, 1);
    assert.match(cut.stdout, /seen before, is gone \(records cut from its end\)/);
    const malformed = await runScript('archive', ['verify', dir, '--expect', 'money:3:nothex']);
    assert.equal(malformed.code, 2);
    assert.match(malformed.stderr, /--expect takes <stream>:<seq>:<hash>/);
  });

  it('export: a player\'s records, and the daily summary per game', async function () {
    this.timeout(60_000);
    const store = await playedStore(6);
    await playedStore(2, 'p2', store);
    await (await openWriter(dir, store, KEY)).drainAll();
    const p2 = await runScript('archive', ['export', dir, '--player', 'p2']);
    assert.equal(p2.code, 0, p2.stderr);
    const records = p2.stdout.trim().split('\n').map((l) => JSON.parse(l) as { player: string; kind: string });
    assert.equal(records.filter((r) => r.kind === 'stake').length, 2);
    assert.ok(records.every((r) => r.player === 'p2'));
    const summary = await runScript('archive', ['export', dir, '--summary', '--from', '2023-11-14', '--to', '2023-11-14']);
    const [row] = summary.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, number | string>);
    const prizes = [...(await store.wallets.journal('p1')), ...(await store.wallets.journal('p2'))].filter((j) => j.kind === 'prize').reduce((sum, j) => sum + j.amount, 0);
    assert.deepEqual(row, { day: '2023-11-14', game: TEN_UNIT_TABLE.game, units: 8, stakes: 8 * TEN_UNIT_TABLE.stake, prizes, ggr: 8 * TEN_UNIT_TABLE.stake - prizes });
  });

  it('move-cold: moves day files past the on-line window, and verify reads both directories as one chain', async function () {
    this.timeout(60_000);
    const store = await playedStore(3);
    await (await openWriter(dir, store, KEY)).drainAll();
    // A later day's file, so that the old one is not the newest (the writer's).
    await store.wallets.deposit('p1', 100, 'late', Date.now());
    await (await ArchiveWriter.open({ dir, outbox: store.outbox, key: KEY, sealRecords: 5, now: Date.now })).drainAll();
    const moved = await runScript('archive', ['move-cold', dir]);
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, /moved money\/2023-11-14\.jsonl\.gz/);
    assert.deepEqual(await readdir(join(`${dir}-cold`, 'money')), ['2023-11-14.jsonl.gz']);
    const both = await runScript('archive', ['verify', dir, '--cold', `${dir}-cold`]);
    assert.equal(both.code, 0, both.stdout);
    const alone = await runScript('archive', ['verify', dir]);
    assert.equal(alone.code, 1, 'the on-line files alone miss the chain\'s start');
    await rm(`${dir}-cold`, { recursive: true });
  });

  describe('verify --books (Redis)', () => {
    let server: RedisServer;
    let client: Redis;
    before(async function () {
      this.timeout(30_000);
      server = await RedisServer.start();
      client = new Redis(server.url);
    });
    after(async () => {
      client?.disconnect();
      await server?.stop();
    });

    async function play(prefix: string): Promise<RedisStore> {
      const store = new RedisStore(client, { prefix });
      await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
      await store.wallets.deposit('p1', 10_000, 'd1', T0);
      for (let i = 0; i < 6; i++) {
        const bought = await store.sales.purchase({ playerId: 'p1', requestId: `r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + i });
        assert.ok(bought.ok);
        await store.sales.settle(bought.sale.unitId, T0 + i);
      }
      return store;
    }

    it('reconciles with the wallet journals, counting what is still in the outbox, and finds a stake never archived', async function () {
      this.timeout(60_000);
      const store = await play('books');
      const writer = await ArchiveWriter.open({ dir, outbox: store.outbox, key: KEY, sealRecords: 3, now: () => T0 });
      await writer.drain('money');
      const env = { REDIS_URL: server.url, REDIS_PREFIX: 'books' };
      const agreed = await runScript('archive', ['verify', dir, '--books'], env);
      assert.equal(agreed.code, 0, agreed.stdout + agreed.stderr);
      assert.match(agreed.stdout, /still in the outbox/);
      // A stake lost on the way (what a side channel could do): gone from the outbox unarchived.
      const [id] = (await client.xrange(store.keys.outbox('money'), '-', '+')).find(([, f]) => f[3]!.startsWith('stake|'))!;
      await client.xdel(store.keys.outbox('money'), id);
      await writer.drainAll();
      const missing = await runScript('archive', ['verify', dir, '--books'], env);
      assert.equal(missing.code, 1);
      assert.match(missing.stdout, /books: 2023-11-14 noel-de-la-chance p1 stake: −2\.50 € in the archive, −3\.00 € in the books/);
    });
  });
});
