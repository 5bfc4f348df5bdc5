import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { encryptionKey } from '../../src/archive/files';
import { SealingKey } from '../../src/archive/seal';
import { verifyArchive } from '../../src/archive/verify';
import { ArchiveWriter } from '../../src/archive/writer';
import { RedisStore } from '../../src/dealer/redis/store';
import { RedisServer } from '../../tools/redis-server';
import { dayFile, openWriter, playedStore, T0, tempDir } from './support/archive-fixture';

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
