import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { SealingKey } from '../../src/archive/seal';
import { verifyArchive } from '../../src/archive/verify';
import { RedisStore } from '../../src/dealer/redis/store';
import { ArchiveWriterProcess } from '../../tools/archive-writer-process';
import { RedisCluster } from '../../tools/redis-cluster';
import { RedisServer } from '../../tools/redis-server';
import { T0 } from '../archive/support/archive-fixture';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';
import { runScript } from './run-script';

/** Resolves once `check` holds, polled every 50 ms; rejects naming `what` after `ms`. Returns the time it took. */
async function within(ms: number, what: string, check: () => Promise<boolean> | boolean): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - start;
}

describe('npm run archive -- run (the writer as the operator runs it)', function () {
  this.timeout(120_000);
  let server: RedisServer;
  let client: Redis;
  let store: RedisStore;
  let dir: string;
  let writer: ArchiveWriterProcess | undefined;
  let played = 0;

  beforeEach(async () => {
    // Append-only, fsync always: what Redis acknowledged survives its kill, as in production.
    server = await RedisServer.start({ appendOnly: true });
    client = new Redis(server.url, { maxRetriesPerRequest: null });
    client.on('error', () => undefined); // Redis is killed under it on purpose.
    store = new RedisStore(client, { prefix: 'w' });
    await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 50, now: T0 });
    await store.wallets.deposit('p1', 1_000_000, 'd1', T0);
    dir = await mkdtemp(join(tmpdir(), 'archive-writer-'));
    await writeFile(join(dir, 'signing-key.pem'), SealingKey.generate().pem(), { mode: 0o600 });
  });
  afterEach(async () => {
    await writer?.kill();
    client?.disconnect();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** The operator's settings; one signing key for every start, as in production (a key made at each start joins the keyring, a write). */
  const env = (archiveDir: string) => ({ REDIS_URL: server.url, REDIS_PREFIX: 'w', ARCHIVE_DIR: archiveDir, ARCHIVE_SEAL_SECONDS: '1', ARCHIVE_SEAL_RECORDS: '7', ARCHIVE_SIGNING_KEY_FILE: join(dir, 'signing-key.pem') });

  /** Buys and settles `units` units of p1 (each a stake, and a prize when it wins). */
  async function play(units: number): Promise<void> {
    for (let i = 0; i < units; i++, played++) {
      const bought = await store.sales.purchase({ playerId: 'p1', requestId: `r${played}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + played });
      assert.ok(bought.ok);
      await store.sales.settle(bought.sale.unitId, T0 + played);
    }
  }

  const waiting = async () => (await client.xlen(store.keys.outbox('money'))) + (await client.xlen(store.keys.outbox('play')));

  /** verify --books on the archive: its exit code and output. */
  async function verifyBooks(archiveDir: string): Promise<void> {
    const verified = await runScript('archive', ['verify', archiveDir, '--books'], { REDIS_URL: server.url, REDIS_PREFIX: 'w' });
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    assert.match(verified.stdout, /\(0 still in the outbox\)/);
    const { records } = await verifyArchive(archiveDir);
    assert.equal(records.get('money')!.length, (await store.wallets.journal('p1')).length, 'every journal line archived once');
  }

  it('reconnects after Redis restarts under it, drains its outbox to 0 within seconds, and verify --books exits 0', async () => {
    writer = ArchiveWriterProcess.start(env(join(dir, 'archive')));
    await play(10);
    await within(30_000, 'the first drain', async () => (await waiting()) === 0);
    for (let restart = 1; restart <= 2; restart++) {
      await server.kill();
      await within(10_000, 'a failed drain told', () => (writer!.output.match(/draining failed/g)?.length ?? 0) >= restart);
      await server.restart();
      await play(10);
      const took = await within(10_000, `the outbox drained after restart ${restart}`, async () => (await waiting()) === 0);
      assert.ok(took < 5_000, `drained ${took} ms after Redis came back`);
      await within(5_000, 'the writer telling it drains again', () => (writer!.output.match(/draining again after/g)?.length ?? 0) >= restart);
    }
    assert.equal(await writer.stop(), 0, writer.output);
    await verifyBooks(join(dir, 'archive'));
  });

  it('survives its disk filling up under it (a small tmpfs): the sealed records stay whole, and once space returns it drains all and verify --books exits 0', async function () {
    if (process.getuid?.() !== 0) this.skip(); // mounting a tmpfs takes root
    const disk = await mkdtemp(join(tmpdir(), 'archive-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', disk]);
    try {
      const archiveDir = join(disk, 'archive');
      writer = ArchiveWriterProcess.start(env(archiveDir));
      await play(10);
      await within(30_000, 'the first drain', async () => (await waiting()) === 0);
      // Fill the disk to its last byte.
      const filler = await open(join(disk, 'filler'), 'w');
      const chunk = Buffer.alloc(4096, 1);
      for (;;) {
        const { bytesWritten } = await filler.write(chunk).catch((err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOSPC') return { bytesWritten: 0 };
          throw err;
        });
        if (bytesWritten < chunk.length) break;
      }
      await filler.close();
      await play(20);
      await within(20_000, 'a drain failing for want of space', () => /draining failed: .*ENOSPC/.test(writer!.output));
      // Killed while the disk is full, and started again on it: it starts, fails its drains, and
      // between them its files and its state agree (killed again just after a failure, before the next).
      await writer.restart();
      await within(30_000, 'the writer started again on the full disk', () => (writer!.output.match(/archive: writing/g)?.length ?? 0) === 2);
      await within(20_000, 'its drain failing for want of space', () => (writer!.output.match(/draining failed: .*ENOSPC/g)?.length ?? 0) === 2);
      await writer.kill();
      const money = join(archiveDir, 'money');
      const state = JSON.parse(await readFile(join(money, 'state.json'), 'utf8')) as { file: string; length: number };
      assert.equal((await stat(join(money, state.file))).size, state.length, 'the day file holds the sealed batches, no half batch');
      assert.deepEqual((await verifyArchive(archiveDir)).problems, [], 'no sealed record lost while the disk is full');
      assert.ok((await waiting()) > 0, 'the entries not sealed wait in Redis');
      await unlink(join(disk, 'filler'));
      await writer.restart();
      await within(20_000, 'the outbox drained once space returned', async () => (await waiting()) === 0);
      assert.equal(await writer.stop(), 0, writer.output);
      assert.deepEqual((await readdir(money)).filter((n) => n.endsWith('.tmp')), [], writer.output);
      await verifyBooks(archiveDir);
    } finally {
      await writer?.kill();
      execFileSync('umount', [disk]);
      await rm(disk, { recursive: true, force: true });
    }
  });
});

describe('npm run archive -- run on a Redis Cluster', function () {
  this.timeout(180_000);
  let cluster: RedisCluster;
  let dir: string;
  let writer: ArchiveWriterProcess | undefined;

  before(async () => {
    cluster = await RedisCluster.start({ appendOnly: true });
    dir = await mkdtemp(join(tmpdir(), 'archive-writer-cluster-'));
    await writeFile(join(dir, 'signing-key.pem'), SealingKey.generate().pem(), { mode: 0o600 });
  });
  after(async () => {
    await writer?.kill();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('drains on through a master killed, failed over and back, then through the whole cluster restarted, and verify --books exits 0', async () => {
    const client = cluster.client({ redisOptions: { maxRetriesPerRequest: null } });
    client.on('error', () => undefined); // Nodes are killed under it on purpose.
    const store = new RedisStore(client, { prefix: 'wc', protocol: 'per-slot', waitReplicas: 1 });
    const env = { REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes, REDIS_PREFIX: 'wc', ARCHIVE_DIR: join(dir, 'archive'), ARCHIVE_SEAL_SECONDS: '1', ARCHIVE_SIGNING_KEY_FILE: join(dir, 'signing-key.pem') };
    const waiting = async () => (await Promise.all(store.outbox.streams.map((s) => client.xlen(store.keys.outbox(s))))).reduce((a, b) => a + b, 0);
    /** A deposit of each of 8 players (relayed to their archive shards before it is answered). */
    const deposit = async (round: number) => {
      for (let p = 0; p < 8; p++) assert.ok((await store.wallets.deposit(`p${p}`, 1000, `d${round}-${p}`, T0 + round)).ok);
    };
    try {
      writer = ArchiveWriterProcess.start(env);
      await deposit(0);
      await within(30_000, 'the first drain', async () => (await waiting()) === 0);
      const [master] = await cluster.masters();
      await master!.kill();
      await cluster.ready(false, 30_000);
      await master!.restart();
      await cluster.ready(true, 60_000);
      await deposit(1);
      const took = await within(15_000, 'the outbox drained after the failover', async () => (await waiting()) === 0);
      assert.ok(took < 10_000, `drained ${took} ms after the cluster was back`);
      // Every node down at once (a power cut): the writer's client has no node left to reach.
      await Promise.all(cluster.servers.map((node) => node.kill()));
      await within(10_000, 'a failed drain told', () => /draining failed/.test(writer!.output));
      await Promise.all(cluster.servers.map((node) => node.restart()));
      await cluster.ready(true, 60_000);
      await deposit(2);
      const again = await within(20_000, 'the outbox drained after the cluster restarted', async () => (await waiting()) === 0);
      assert.ok(again < 10_000, `drained ${again} ms after the cluster was back`);
      assert.equal(await writer.stop(), 0, writer.output);
      const verified = await runScript('archive', ['verify', join(dir, 'archive'), '--books'], { REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes, REDIS_PREFIX: 'wc' });
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
      assert.match(verified.stdout, /24 journal lines, 24 archived/);
    } finally {
      await store.close();
      client.disconnect();
    }
  });
});
