import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { appendFile, mkdir, open, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { encryptionKey } from '../../src/archive/files';
import { SealingKey } from '../../src/archive/seal';
import { verifyArchive } from '../../src/archive/verify';
import { ArchiveWriter, type DayFileHandle, type DayFileOpener } from '../../src/archive/writer';
import type { ArchiveOutbox } from '../../src/dealer/outbox';
import { RedisStore } from '../../src/dealer/redis/store';
import { RedisServer } from '../../tools/redis-server';
import { dayFile, openWriter, playedStore, T0, tempDir } from './support/archive-fixture';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';

const KEY = SealingKey.generate();

describe('ArchiveWriter', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => ({ dir, remove } = await tempDir()));
  afterEach(() => remove());

  it('archives every journal line once, seals every N records, and trims the outbox behind its seals', async () => {
    const store = await playedStore(8);
    const writer = await openWriter(dir, store, KEY, 4);
    const written = await writer.drainAll();
    const journal = await store.wallets.journal('p1');
    assert.equal(written, journal.length);
    assert.deepEqual(await store.outbox.read('money', undefined, 100), []);
    const { problems, records, seals } = await verifyArchive(dir);
    assert.deepEqual(problems, []);
    assert.deepEqual(records.get('money')!.map((r) => [r.kind, r.payload['amount'], r.payload['ref']]), journal.map((j) => [j.kind, j.amount, j.ref]));
    assert.equal(seals, Math.ceil(journal.length / 4));
  });

  it('verifies a stream whose records it is told not to keep, and counts them (a busy day is millions of records)', async () => {
    const store = await playedStore(8);
    await (await openWriter(dir, store, KEY, 4)).drainAll();
    const kept = await verifyArchive(dir);
    const counted = await verifyArchive(dir, { keep: () => false });
    assert.deepEqual(counted.problems, []);
    assert.equal(counted.records.size, 0);
    assert.equal(counted.counts.get('money'), kept.records.get('money')!.length);
    assert.deepEqual(counted.heads, kept.heads);
  });

  it('resumes after its last seal: bytes written after it are cut and drained again, a file never sealed is dropped', async () => {
    const store = await playedStore(3);
    await (await openWriter(dir, store, KEY)).drainAll();
    await playedStore(3, 'p2', store);
    // A crash after appending, before recording the state: a partial chunk, then a day file of its own.
    await appendFile(await dayFile(dir, 'money'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]));
    await writeFile(join(dir, 'money', '2099-01-01.jsonl.gz'), 'cut');
    const writer = await openWriter(dir, store, KEY);
    await writer.drainAll();
    const { problems, records } = await verifyArchive(dir);
    assert.deepEqual(problems, []);
    assert.deepEqual(await readdir(join(dir, 'money')), [(await dayFile(dir, 'money')).split('/').pop(), 'state.json']);
    const refs = records.get('money')!.map((r) => `${r.player}:${r.kind}:${r.payload['ref']}`);
    assert.equal(new Set(refs).size, refs.length, 'no record twice');
    assert.equal(refs.length, (await store.wallets.journal('p1')).length + (await store.wallets.journal('p2')).length);
  });

  it('writes files encrypted at rest with the operator key, which verify needs', async () => {
    const key = encryptionKey('11'.repeat(32));
    const store = await playedStore(4);
    await (await openWriter(dir, store, KEY, 3, key)).drainAll();
    const [file] = (await readdir(join(dir, 'money'))).filter((n) => n.endsWith('.aes'));
    assert.ok(file, 'an encrypted day file');
    assert.ok(!(await readFile(join(dir, 'money', file))).includes(Buffer.from('"stake"')), 'no record in clear');
    assert.deepEqual((await verifyArchive(dir, { encryptionKey: key })).problems, []);
    assert.match((await verifyArchive(dir)).problems[0]!.problem, /needs the archive encryption key/);
    const wrong = await verifyArchive(dir, { encryptionKey: encryptionKey('22'.repeat(32)) });
    assert.match(wrong.problems[0]!.problem, /unreadable/);
  });

  it('archives the process records of the play stream in their own chain', async () => {
    const store = await playedStore(0);
    await store.outbox.append({ at: T0, kind: 'sign_in', player: 'p1', session: 's1', table: '', process: 'x', payload: {} });
    await (await openWriter(dir, store, KEY)).drainAll();
    const { problems, records } = await verifyArchive(dir);
    assert.deepEqual(problems, []);
    assert.deepEqual(records.get('play')!.map((r) => [r.seq, r.kind, r.session]), [[1, 'sign_in', 's1']]);
  });
});

/** A failure of the disk under the writer, as node:fs reports it. */
function diskError(code: 'ENOSPC' | 'EIO'): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${code === 'ENOSPC' ? 'no space left on device' : 'i/o error'}, write`), { code });
}

/**
 * Day files opened through node:fs, with faults: each write writes at most `most` bytes (a short
 * write, no error); while `failing` is set, a write fails with it once it has written half of
 * what it was asked (a disk that fills up in the middle of a batch), or the fsync does.
 */
class FaultyDisk {
  most = Infinity;
  failing: { readonly error: 'ENOSPC' | 'EIO'; readonly at: 'write' | 'sync' } | undefined;
  failures = 0;

  readonly open: DayFileOpener = async (path) => {
    const handle = await open(path, 'r+').catch(() => open(path, 'w+'));
    const write: DayFileHandle['write'] = async (buffer, offset, length, position) => {
      if (this.failing?.at === 'write') {
        await handle.write(buffer, offset, Math.ceil(length / 2), position);
        this.failures++;
        throw diskError(this.failing.error);
      }
      return handle.write(buffer, offset, Math.min(length, this.most), position);
    };
    const sync = async () => {
      if (this.failing?.at !== 'sync') return handle.sync();
      this.failures++;
      throw diskError(this.failing.error);
    };
    return { write, sync, truncate: (length) => handle.truncate(length), close: () => handle.close() };
  };
}

describe('ArchiveWriter on a failing disk', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => ({ dir, remove } = await tempDir()));
  afterEach(() => remove());

  const open = (store: Awaited<ReturnType<typeof playedStore>>, disk: FaultyDisk) =>
    ArchiveWriter.open({ dir, outbox: store.outbox, key: KEY, sealRecords: 4, now: () => T0, dayFiles: disk.open });

  /** Every journal line archived exactly once, the archive verified, the outbox empty, the state's length the file's. */
  async function assertWhole(store: Awaited<ReturnType<typeof playedStore>>): Promise<void> {
    const { problems, records } = await verifyArchive(dir);
    assert.deepEqual(problems, []);
    const journal = [...(await store.wallets.journal('p1')), ...(await store.wallets.journal('p2'))];
    assert.deepEqual(records.get('money')!.map((r) => [r.kind, r.payload['ref']]), journal.map((j) => [j.kind, j.ref]));
    assert.deepEqual(await store.outbox.read('money', undefined, 100), []);
    const state = JSON.parse(await readFile(join(dir, 'money', 'state.json'), 'utf8')) as { length: number };
    assert.equal((await stat(await dayFile(dir, 'money'))).size, state.length);
  }

  it('writes each batch whole through short writes (fewer bytes written, no error)', async () => {
    const store = await playedStore(6);
    const disk = new FaultyDisk();
    disk.most = 7;
    await (await open(store, disk)).drainAll();
    await assertWhole(store);
  });

  for (const failing of [{ error: 'ENOSPC', at: 'write' }, { error: 'EIO', at: 'write' }, { error: 'EIO', at: 'sync' }] as const) {
    it(`leaves no half batch in the file and trims nothing while a ${failing.at} fails with ${failing.error}, and archives everything once once the disk is back`, async () => {
      const store = await playedStore(3);
      const disk = new FaultyDisk();
      const writer = await open(store, disk);
      await writer.drainAll();
      const sealed = JSON.parse(await readFile(join(dir, 'money', 'state.json'), 'utf8')) as { length: number; seq: number };
      await playedStore(3, 'p2', store);
      disk.failing = failing;
      for (let i = 0; i < 3; i++) await assert.rejects(writer.drainAll(), { code: failing.error });
      assert.ok(disk.failures >= 3, 'each drain met the failure');
      assert.equal((await stat(await dayFile(dir, 'money'))).size, sealed.length, 'cut back to the last seal');
      assert.deepEqual(JSON.parse(await readFile(join(dir, 'money', 'state.json'), 'utf8')), { ...sealed });
      assert.ok((await store.outbox.read('money', undefined, 100)).length > 0, 'the outbox still holds the batch');
      disk.failing = undefined;
      await writer.drainAll();
      await assertWhole(store);
    });
  }

  it('trims again what it sealed when the trim after its seal failed (Redis away), at its next drain and after a restart', async () => {
    for (const restart of [false, true]) {
      const store = await playedStore(3);
      const { outbox } = store;
      let trimFails = true;
      // The store's outbox, whose trims fail while `trimFails` (Redis gone between the seal and the trim).
      const away: ArchiveOutbox = {
        streams: outbox.streams,
        read: (stream, after, count) => outbox.read(stream, after, count),
        append: (record) => outbox.append(record),
        unrelayed: (playerId) => outbox.unrelayed(playerId),
        trim: async (stream, through) => {
          if (trimFails) throw new Error('Connection is closed.');
          return outbox.trim(stream, through);
        },
      };
      const { dir: other, remove: removeOther } = await tempDir();
      try {
        const open = () => ArchiveWriter.open({ dir: other, outbox: away, key: KEY, sealRecords: 100, now: () => T0 });
        const writer = await open();
        await assert.rejects(writer.drainAll(), /Connection is closed/);
        assert.ok((await outbox.read('money', undefined, 100)).length > 0, 'sealed, still in the outbox');
        trimFails = false;
        await (restart ? await open() : writer).drainAll();
        assert.deepEqual(await outbox.read('money', undefined, 100), [], restart ? 'after a restart' : 'at the next drain');
        assert.deepEqual((await verifyArchive(other)).problems, []);
      } finally {
        await removeOther();
      }
    }
  });

  it('restarted after a failed batch, finds its files and its state consistent and archives everything once', async () => {
    const store = await playedStore(3);
    const disk = new FaultyDisk();
    await (await open(store, disk)).drainAll();
    await playedStore(3, 'p2', store);
    disk.failing = { error: 'ENOSPC', at: 'write' };
    await assert.rejects((await open(store, disk)).drainAll(), { code: 'ENOSPC' });
    await (await open(store, new FaultyDisk())).drainAll();
    await assertWhole(store);
  });
});

describe('ArchiveWriter, its files and its state', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => ({ dir, remove } = await tempDir()));
  afterEach(() => remove());

  it('refuses a seal size that is not a whole number of at least one', async () => {
    const store = await playedStore(1);
    for (const sealRecords of [0, 1.5]) await assert.rejects(openWriter(dir, store, KEY, sealRecords), new RegExp(`sealRecords must be a whole number ≥ 1: ${sealRecords}`));
    assert.ok(await openWriter(dir, store, KEY, 1));
  });

  it('lists the streams of its outbox in the manifest once, and rewrites neither the manifest nor the keyring when reopened', async () => {
    const store = await playedStore(1);
    await openWriter(dir, store, KEY);
    assert.deepEqual(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')), { format: 'instant-games-archive/1', streams: ['money', 'play'] });
    const before = await Promise.all(['manifest.json', 'keyring.json'].map((f) => stat(join(dir, f))));
    await openWriter(dir, store, KEY);
    const after = await Promise.all(['manifest.json', 'keyring.json'].map((f) => stat(join(dir, f))));
    assert.deepEqual(after.map((s) => s.ino), before.map((s) => s.ino), 'the same files: none renamed over');
    assert.deepEqual(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')).streams, ['money', 'play']);
  });

  it('tells how many records it archived', async () => {
    const store = await playedStore(2);
    await store.outbox.append({ at: T0, kind: 'sign_in', player: 'p1', session: 's', table: '', process: 'x', payload: {} });
    const money = (await store.outbox.read('money', undefined, 100)).length;
    assert.equal(await (await openWriter(dir, store, KEY, 2)).drainAll(), money + 1);
  });

  it('refuses to start on a state it cannot read, rather than start the chain again', async () => {
    const store = await playedStore(2);
    await (await openWriter(dir, store, KEY)).drainAll();
    await writeFile(join(dir, 'money', 'state.json'), '{"seq":');
    await assert.rejects(openWriter(dir, store, KEY), SyntaxError);
  });

  it('drops a day file no state counts on a fresh start (a crash before the first state)', async () => {
    const store = await playedStore(2);
    await mkdir(join(dir, 'money'), { recursive: true });
    await writeFile(join(dir, 'money', '2030-01-01.jsonl.gz'), 'cut');
    await (await openWriter(dir, store, KEY)).drainAll();
    assert.deepEqual((await verifyArchive(dir)).problems, []);
    assert.deepEqual((await readdir(join(dir, 'money'))).filter((n) => n.startsWith('2030')), []);
  });

  it('cuts the bytes a crash left after its state as it opens, and keeps the days before whole', async () => {
    const store = await playedStore(6);
    const writer = await openWriter(dir, store, KEY);
    await writer.drainAll();
    const bought = await store.sales.purchase({ playerId: 'p1', requestId: 'next-day', game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + 86_400_000 });
    assert.ok(bought.ok);
    await writer.drainAll();
    const names = (await readdir(join(dir, 'money'))).filter((n) => n.endsWith('.gz')).sort();
    assert.equal(names.length, 2);
    await appendFile(join(dir, 'money', names[1]!), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]));
    await openWriter(dir, store, KEY);
    assert.deepEqual((await verifyArchive(dir)).problems, [], 'consistent before any drain');
  });

  it('cuts the batch back when its state cannot be written, and archives it once when it can', async () => {
    const store = await playedStore(2);
    const writer = await openWriter(dir, store, KEY);
    await writer.drainAll();
    const sealed = JSON.parse(await readFile(join(dir, 'money', 'state.json'), 'utf8')) as { length: number };
    await playedStore(2, 'p2', store);
    await mkdir(join(dir, 'money', 'state.json.tmp')); // the state's temporary file cannot be opened
    await assert.rejects(writer.drainAll());
    assert.equal((await stat(await dayFile(dir, 'money'))).size, sealed.length);
    await rm(join(dir, 'money', 'state.json.tmp'), { recursive: true });
    await writer.drainAll();
    assert.deepEqual((await verifyArchive(dir)).problems, []);
    assert.deepEqual(await store.outbox.read('money', undefined, 100), []);
  });

  it('keeps a batch whose state was renamed into place before its directory failed to sync, and archives nothing twice', async () => {
    const store = await playedStore(2);
    let syncFails = false;
    const writer = await ArchiveWriter.open({
      dir, outbox: store.outbox, key: KEY, sealRecords: 4, now: () => T0,
      syncStateDirectory: async (folder) => {
        if (syncFails) throw diskError('EIO');
        const handle = await open(folder, 'r');
        await handle.sync().finally(() => handle.close());
      },
    });
    await writer.drainAll();
    await playedStore(2, 'p2', store);
    syncFails = true;
    await assert.rejects(writer.drainAll(), /EIO/);
    const state = JSON.parse(await readFile(join(dir, 'money', 'state.json'), 'utf8')) as { length: number };
    assert.equal((await stat(await dayFile(dir, 'money'))).size, state.length, 'the batch the state counts stays');
    syncFails = false;
    await writer.drainAll();
    assert.deepEqual((await verifyArchive(dir)).problems, []);
    assert.deepEqual(await store.outbox.read('money', undefined, 100), []);
  });

  it('trims, at its next drain, a batch whose trim failed though nothing new came', async () => {
    const store = await playedStore(1);
    const { outbox } = store;
    let trimFails = false;
    const away: ArchiveOutbox = Object.assign(Object.create(outbox) as ArchiveOutbox, {
      trim: async (stream: string, through: string) => {
        if (trimFails) throw new Error('Connection is closed.');
        return outbox.trim(stream, through);
      },
    });
    const writer = await ArchiveWriter.open({ dir, outbox: away, key: KEY, sealRecords: 100, now: () => T0 });
    await writer.drainAll();
    await playedStore(1, 'p2', store);
    trimFails = true;
    await assert.rejects(writer.drainAll(), /Connection is closed/);
    trimFails = false;
    assert.equal(await writer.drainAll(), 0);
    assert.deepEqual(await outbox.read('money', undefined, 100), []);
  });

  it('stops after the drain under way when stopped during it', async () => {
    const store = await playedStore(1);
    const writer = await openWriter(dir, store, KEY);
    const drained: number[] = [];
    const stop = writer.run(5, (err) => assert.fail(String(err)), (records) => drained.push(records));
    await stop();
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(drained.length, 1);
  });

  it('opens on a day file shorter than its state without lengthening it, for verify to tell', async () => {
    const store = await playedStore(6);
    await (await openWriter(dir, store, KEY)).drainAll();
    const path = await dayFile(dir, 'money');
    const size = (await stat(path)).size - 10;
    await truncate(path, size);
    await openWriter(dir, store, KEY);
    assert.equal((await stat(path)).size, size);
  });

  it('drains at each tick until stopped, and not after', async () => {
    const store = await playedStore(1);
    const writer = await openWriter(dir, store, KEY);
    const drained: number[] = [];
    const stop = writer.run(5, (err) => assert.fail(String(err)), (records) => drained.push(records));
    while (drained.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    await stop();
    const after = drained.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(drained.length, after, 'no drain after the stop');
    assert.ok(drained[0]! > 0);
  });
});

/** Day files opened through node:fs, counting the handles opened and closed. */
interface CountingDisk {
  opener: DayFileOpener;
  open: number;
  closed: number;
  zeroWrites: boolean;
}

function countingDisk(): CountingDisk {
  const disk: CountingDisk = {
    open: 0,
    closed: 0,
    zeroWrites: false,
    opener: (async (path) => {
      const handle = await open(path, 'r+').catch(() => open(path, 'w+'));
      disk.open++;
      return {
        // Zero writes: the first write of a batch writes 10 bytes, the next ones none.
        write: async (buffer, offset, length, position) => (disk.zeroWrites ? (offset === 0 ? handle.write(buffer, 0, 10, position) : { bytesWritten: 0 }) : handle.write(buffer, offset, length, position)),
        sync: () => handle.sync(),
        truncate: (length) => handle.truncate(length),
        close: async () => {
          disk.closed++;
          await handle.close();
        },
      };
    }) as DayFileOpener,
  };
  return disk;
}

describe('ArchiveWriter, its day file handles', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => ({ dir, remove } = await tempDir()));
  afterEach(() => remove());

  it('closes every day file it opens, and fails a write that writes nothing rather than loop', async () => {
    const store = await playedStore(3);
    const disk = countingDisk();
    const writer = await ArchiveWriter.open({ dir, outbox: store.outbox, key: KEY, sealRecords: 2, now: () => T0, dayFiles: disk.opener });
    await writer.drainAll();
    assert.ok(disk.open > 1);
    assert.equal(disk.closed, disk.open);
    await playedStore(1, 'p2', store);
    disk.zeroWrites = true;
    const sealed = JSON.parse(await readFile(join(dir, 'money', 'state.json'), 'utf8')) as { length: number };
    await assert.rejects(writer.drainAll(), { message: `no byte written to ${await dayFile(dir, 'money')} at ${sealed.length + 10}` });
    assert.equal(disk.closed, disk.open);
  });
});

describe('the archive of a purchase whose process is killed before any writer ran', () => {
  let server: RedisServer;
  let dir: string;
  let remove: () => Promise<void>;
  before(async function () {
    this.timeout(30_000);
    server = await RedisServer.start();
    ({ dir, remove } = await tempDir());
  });
  after(async () => {
    await server?.stop();
    await remove?.();
  });

  it('holds the purchase after the restart: its entry was written with the sale', async function () {
    this.timeout(60_000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/archive/support/buyer-process.ts', JSON.stringify({ url: server.url, prefix: 'killed' })], { stdio: ['ignore', 'pipe', 'inherit'] });
    const unitId = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /bought (\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`the buyer exited with ${code} before buying`)));
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const client = new Redis(server.url);
    try {
      const store = new RedisStore(client, { prefix: 'killed' });
      const writer = await ArchiveWriter.open({ dir, outbox: store.outbox, key: KEY, sealRecords: 10, now: () => T0 });
      await writer.drainAll();
      const { problems, records } = await verifyArchive(dir);
      assert.deepEqual(problems, []);
      assert.deepEqual(records.get('money')!.map((r) => [r.kind, r.player, r.payload['ref']]), [['deposit', 'p1', 'd1'], ['stake', 'p1', unitId]]);
      assert.equal(await client.xlen(store.keys.outbox('money')), 0, 'trimmed once sealed');
    } finally {
      client.disconnect();
    }
  });
});
