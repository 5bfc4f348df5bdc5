import { strict as assert } from 'node:assert';
import { copyFile, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encryptionKey, readDayFile } from '../../src/archive/files';
import { GENESIS, recordBytes, sha256Hex, type ArchiveRecord } from '../../src/archive/records';
import { Keyring, SealingKey } from '../../src/archive/seal';
import { formatProblem, verifyArchive } from '../../src/archive/verify';
import { dayFile, openWriter, playedStore, T0, tamper, tempDir } from './support/archive-fixture';
import { TEN_UNIT_TABLE } from '../dealer/support/test-tables';

const KEY = SealingKey.generate();

describe('verifyArchive', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    const store = await playedStore(12);
    await (await openWriter(dir, store, KEY)).drainAll();
  });
  afterEach(() => remove());

  async function problems(): Promise<string[]> {
    return (await verifyArchive(dir)).problems.map(formatProblem);
  }

  it('finds nothing wrong in an archive as written, and reads every record', async () => {
    const verified = await verifyArchive(dir);
    assert.deepEqual(verified.problems, []);
    assert.ok(verified.records.get('money')!.length >= 13, 'a deposit, 12 stakes and the prizes');
    assert.equal(verified.seals, Math.ceil(verified.records.get('money')!.length / 5));
  });

  it('verifies the seals with the published public key alone', async () => {
    const verified = await verifyArchive(dir, { keyring: new Keyring([KEY.published]) });
    assert.deepEqual(verified.problems, []);
    const other = await verifyArchive(dir, { keyring: new Keyring([SealingKey.generate().published]) });
    assert.ok(other.problems.length > 0 && other.problems.every((p) => /not in the keyring/.test(p.problem)));
  });

  it('finds a record altered, with its place', async () => {
    await tamper(await dayFile(dir, 'money'), (lines) =>
      lines.map((l, i) => {
        if (i !== 2) return l;
        const record = JSON.parse(l) as ArchiveRecord;
        return JSON.stringify({ ...record, payload: { ...record.payload, amount: 1 } });
      }),
    );
    assert.deepEqual(await problems(), [`money/${(await dayFile(dir, 'money')).split('/').pop()}:3: record 3 altered: its hash is not its content's`]);
  });

  it('finds a record altered with its hash recomputed: the chain breaks at the next one', async () => {
    await tamper(await dayFile(dir, 'money'), (lines) =>
      lines.map((l, i) => {
        if (i !== 2) return l;
        const { t: _t, hash: _h, ...body } = JSON.parse(l) as ArchiveRecord;
        const altered = { ...body, payload: { ...body.payload, amount: -1 } };
        return JSON.stringify({ t: 'r', ...altered, hash: sha256Hex(recordBytes(altered)) });
      }),
    );
    const found = await problems();
    assert.ok(found.some((p) => /:4: chain broken at record 4/.test(p)), found.join('\n'));
  });

  it("finds a stake rewritten with its hash recomputed and the next record's prev updated: that next record's hash binds its prev", async () => {
    let rewritten = '';
    await tamper(await dayFile(dir, 'money'), (lines) =>
      lines.map((l, i) => {
        if (i === 1) {
          const { t: _t, hash: _h, ...body } = JSON.parse(l) as ArchiveRecord;
          assert.equal(body.kind, 'stake');
          const altered = { ...body, payload: { ...body.payload, amount: -1 } };
          rewritten = sha256Hex(recordBytes(altered));
          return JSON.stringify({ t: 'r', ...altered, hash: rewritten });
        }
        return i === 2 ? JSON.stringify({ ...(JSON.parse(l) as ArchiveRecord), prev: rewritten }) : l;
      }),
    );
    assert.deepEqual(await problems(), [`money/${(await dayFile(dir, 'money')).split('/').pop()}:3: record 3 altered: its hash is not its content's`]);
  });

  it('finds a record removed', async () => {
    await tamper(await dayFile(dir, 'money'), (lines) => lines.filter((_, i) => i !== 1));
    const found = await problems();
    assert.ok(found.some((p) => /:2: record 2 missing before record 3/.test(p)), found.join('\n'));
  });

  it('finds records reordered', async () => {
    await tamper(await dayFile(dir, 'money'), (lines) => [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)]);
    const found = await problems();
    assert.ok(found.some((p) => /:2: record 2 missing before record 3/.test(p)), found.join('\n'));
    assert.ok(found.some((p) => /:3: record 2 out of order or added/.test(p)), found.join('\n'));
  });

  it('finds a record added', async () => {
    await tamper(await dayFile(dir, 'money'), (lines) => [...lines.slice(0, 3), lines[2]!, ...lines.slice(3)]);
    const found = await problems();
    assert.ok(found.some((p) => /:4: record 3 out of order or added/.test(p)), found.join('\n'));
  });

  it('finds a seal whose signature is not its own', async () => {
    await tamper(await dayFile(dir, 'money'), (lines) =>
      lines.map((l) => {
        const parsed = JSON.parse(l) as { t: string; first?: number };
        return parsed.t === 's' && parsed.first === 1 ? JSON.stringify({ ...parsed, first: 2 }) : l;
      }),
    );
    const name = (await dayFile(dir, 'money')).split('/').pop();
    assert.deepEqual(await problems(), [`money/${name}:6: seal of records 2…5 where 1…5 precede it`, `money/${name}:6: seal of records 2…5: bad signature`]);
  });

  it('finds records at the end that no seal covers, placed in the last day file', async () => {
    await tamper(await dayFile(dir, 'money'), (lines) => lines.slice(0, -1));
    const name = (await dayFile(dir, 'money')).split('/').pop()!;
    const found = await problems();
    assert.ok(found.some((p) => new RegExp(`^money/${name.replaceAll('.', '\\.')}: records \\d+…\\d+ are not sealed$`).test(p)), found.join('\n'));
  });

  it('finds a single record at the end that no seal covers', async () => {
    let last = 0;
    await tamper(await dayFile(dir, 'money'), (lines) => {
      const seals = lines.flatMap((l, i) => ((JSON.parse(l) as { t: string }).t === 's' ? [i] : []));
      const kept = lines.slice(0, seals.at(-2)! + 2);
      last = (JSON.parse(kept.at(-1)!) as ArchiveRecord).seq;
      return kept;
    });
    const found = await problems();
    assert.ok(found.some((p) => p.endsWith(`: records ${last}…${last} are not sealed`)), found.join('\n'));
  });

  it('finds two records removed, naming both', async () => {
    await tamper(await dayFile(dir, 'money'), (lines) => lines.filter((_, i) => i !== 1 && i !== 2));
    const found = await problems();
    assert.ok(found.some((p) => /:2: records 2…3 missing before record 4/.test(p)), found.join('\n'));
  });

  it("finds a record or a seal of another stream in this one", async () => {
    await tamper(await dayFile(dir, 'money'), (lines) =>
      lines.map((l, i) => (i === 0 || i === 5 ? JSON.stringify({ ...(JSON.parse(l) as object), stream: 'play' }) : l)),
    );
    const found = await problems();
    assert.ok(found.some((p) => /:1: record of stream "play" in this stream/.test(p)), found.join('\n'));
    assert.ok(found.some((p) => /:6: seal of stream "play" in this stream/.test(p)), found.join('\n'));
  });

  it('finds a seal whose range and hash are not the records before it, once a record before it is removed', async () => {
    await tamper(await dayFile(dir, 'money'), (lines) => lines.filter((_, i) => i !== 4));
    const name = (await dayFile(dir, 'money')).split('/').pop();
    const found = await problems();
    for (const problem of [`money/${name}:5: seal of records 1…5 where 1…4 precede it`, `money/${name}:5: seal of records 1…5: its hash is not record 4's`]) {
      assert.ok(found.includes(problem), found.join('\n'));
    }
  });

  it('finds a line that is not JSON, and one that is neither a record nor a seal', async () => {
    await tamper(await dayFile(dir, 'money'), (lines) => [...lines.slice(0, 2), 'garbage', '{"t":"x"}', ...lines.slice(2)]);
    const found = await problems();
    assert.ok(found.some((p) => /:3: not a JSON line$/.test(p)), found.join('\n'));
    assert.ok(found.some((p) => /:4: neither a record nor a seal$/.test(p)), found.join('\n'));
  });

  it('reads a day file whose last line has no newline', async () => {
    const path = await dayFile(dir, 'money');
    const { gunzipSync, gzipSync } = await import('node:zlib');
    await writeFile(path, gzipSync(gunzipSync(await readFile(path)).toString('utf8').replace(/\n$/, '')));
    assert.deepEqual(await problems(), []);
  });

  it('finds nothing against the heads it gave, one per stream of the manifest (a stream with no seal: record 0)', async () => {
    const { heads } = await verifyArchive(dir);
    const money = (await verifyArchive(dir)).records.get('money')!;
    assert.deepEqual(heads, [
      { stream: 'money', seq: money.length, hash: money.at(-1)!.hash },
      { stream: 'play', seq: 0, hash: GENESIS },
    ]);
    assert.deepEqual((await verifyArchive(dir, { expect: heads })).problems, []);
    assert.deepEqual((await verifyArchive(dir, { expect: [{ stream: 'money', seq: 0, hash: GENESIS }] })).problems, [], 'a stream empty when seen before');
  });

  it('finds a record that is not the one seen before under its number', async () => {
    const name = (await dayFile(dir, 'money')).split('/').pop();
    const other = 'f'.repeat(64);
    const found = (await verifyArchive(dir, { expect: [{ stream: 'money', seq: 5, hash: other }] })).problems.map(formatProblem);
    assert.deepEqual(found, [`money/${name}:5: record 5 is not the one seen before (its hash was ${other})`]);
  });

  it('finds a folder that is no stream of the manifest', async () => {
    await mkdir(join(dir, 'stray'));
    assert.deepEqual(await problems(), ['stray/: stream not in the manifest']);
  });

  it("finds the writer's state unreadable", async () => {
    await writeFile(join(dir, 'money', 'state.json'), '{');
    const found = await problems();
    assert.equal(found.length, 1, found.join('\n'));
    assert.match(found[0]!, /^money\/.+: the writer's state is unreadable: /);
  });

  it('reads the cold directory with the on-line one as one chain, and finds a day file in both', async () => {
    const { dir: cold, remove: removeCold } = await tempDir();
    try {
      const path = await dayFile(dir, 'money');
      const name = path.split('/').pop()!;
      await mkdir(join(cold, 'money'));
      await copyFile(path, join(cold, 'money', name));
      assert.deepEqual((await verifyArchive(dir, { coldDir: cold })).problems.map(formatProblem), [`money/${name}: in both the cold and the on-line directory`]);
      await unlink(path);
      const verified = await verifyArchive(dir, { coldDir: cold });
      assert.deepEqual(verified.problems, []);
      assert.ok(verified.records.get('money')!.length >= 13);
      assert.ok((await problems()).length > 0, 'without the cold directory, its records are missing');
    } finally {
      await removeCold();
    }
  });

  it('reads the day files in the order of their days, the cold ones among them', async () => {
    const { dir: two, remove: removeTwo } = await tempDir();
    const { dir: cold, remove: removeCold } = await tempDir();
    try {
      const store = await playedStore(2);
      const writer = await openWriter(two, store, KEY);
      await writer.drainAll();
      const bought = await store.sales.purchase({ playerId: 'p1', requestId: 'next-day', game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + 86_400_000 });
      assert.ok(bought.ok);
      await writer.drainAll();
      const names = (await readdir(join(two, 'money'))).filter((n) => n.endsWith('.gz')).sort();
      assert.equal(names.length, 2, names.join(' '));
      // The later day's file in the cold directory: a reader that took the cold files first would read it first.
      await mkdir(join(cold, 'money'));
      await rename(join(two, 'money', names[1]!), join(cold, 'money', names[1]!));
      assert.deepEqual((await verifyArchive(two, { coldDir: cold })).problems, []);
    } finally {
      await removeTwo();
      await removeCold();
    }
  });

  it('names the day file it cannot read at all', async () => {
    const path = await dayFile(dir, 'money');
    const name = path.split('/').pop()!;
    await rename(path, join(dir, 'money', `${name}.aes`));
    const found = await problems();
    assert.ok(found.some((p) => p.startsWith(`money/${name}.aes: unreadable: `)), found.join('\n'));
  });

  /** The day file's lines without its last sealed batch: the records after the seal before the last, and that last seal. */
  const withoutLastBatch = (lines: string[]) => {
    const seals = lines.flatMap((l, i) => ((JSON.parse(l) as { t: string }).t === 's' ? [i] : []));
    return lines.slice(0, seals.at(-2)! + 1);
  };

  it("gives each stream's head, and finds the newest sealed batch cut off against the head seen before", async () => {
    const { heads } = await verifyArchive(dir);
    const money = heads.find((h) => h.stream === 'money')!;
    assert.equal(money.seq, (await verifyArchive(dir)).records.get('money')!.length);
    assert.equal(money.hash, (await verifyArchive(dir)).records.get('money')!.at(-1)!.hash);
    await tamper(await dayFile(dir, 'money'), withoutLastBatch);
    await unlink(join(dir, 'money', 'state.json')); // a copy without the writer's state: the head seen before alone tells
    assert.deepEqual(await problems(), [], 'the chain alone cannot tell');
    const found = (await verifyArchive(dir, { expect: heads })).problems.map(formatProblem);
    assert.ok(found.some((p) => new RegExp(`record ${money.seq}, seen before, is gone`).test(p)), found.join('\n'));
  });

  it("finds the newest sealed batch cut off against the writer's state", async () => {
    await tamper(await dayFile(dir, 'money'), withoutLastBatch);
    const found = await problems();
    assert.ok(found.some((p) => /the writer's state says it sealed up to record \d+ \(records cut from its end\)/.test(p)), found.join('\n'));
  });

  it('finds a day file, a stream or its place in the manifest removed, against the heads seen before', async () => {
    const { heads } = await verifyArchive(dir);
    const found = async () => (await verifyArchive(dir, { expect: heads })).problems.map(formatProblem);
    await unlink(await dayFile(dir, 'money'));
    assert.ok((await found()).some((p) => /^money\/: ends at record 0: record \d+, seen before, is gone/.test(p)), (await found()).join('\n'));
    await rm(join(dir, 'money'), { recursive: true });
    assert.ok((await found()).some((p) => /seen before, is gone/.test(p)));
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { streams: string[] };
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, streams: manifest.streams.filter((s) => s !== 'money') }));
    assert.ok((await found()).some((p) => /^money\/: stream seen before, not in the manifest/.test(p)), (await found()).join('\n'));
  });

  it("finds a field added to a record's line, or written twice, though neither changes the record's hash", async () => {
    await tamper(await dayFile(dir, 'money'), (lines) =>
      lines.map((l, i) => {
        if (i === 1) return l.replace(/}$/, ',"note":"refunded"}');
        if (i === 2) return l.replace('"payload":{', '"payload":{"amount":123456,');
        if (i === 5) return l.replace(/}$/, ',"note":"x"}');
        return l;
      }),
    );
    const found = await problems();
    assert.ok(found.some((p) => /:2: record 2: its line is not as written/.test(p)), found.join('\n'));
    assert.ok(found.some((p) => /:3: record 3: its line is not as written/.test(p)), found.join('\n'));
    assert.ok(found.some((p) => /:6: seal: its line is not as written/.test(p)), found.join('\n'));
    assert.ok(!found.some((p) => /altered/.test(p)), 'no hash changed: only the lines give them away');
  });

  it('keeps the seals of a key rotated out valid: the keyring keeps the old key', async () => {
    const rotated = SealingKey.generate();
    const store = await playedStore(3, 'p2');
    await (await openWriter(dir, store, rotated)).drainAll();
    const verified = await verifyArchive(dir);
    assert.deepEqual(verified.problems, []);
    const keyring = JSON.parse(await readFile(join(dir, 'keyring.json'), 'utf8')) as { keys: { id: string }[] };
    assert.deepEqual(keyring.keys.map((k) => k.id).sort(), [KEY.id, rotated.id].sort());
    await writeFile(join(dir, 'keyring.json'), new Keyring([rotated.published]).toJson());
    assert.ok((await problems()).some((p) => new RegExp(`signed by key ${KEY.id}, not in the keyring`).test(p)), 'the old seals need the old key');
  });

  describe('a damaged batch', () => {
    /** The archive of 12 units in batches of 5 records, with `damage` done to the second batch's bytes of its money day file. */
    async function damaged(damage: (bytes: Buffer, batch: { offset: number; length: number }) => void, key?: Buffer) {
      const { dir: other, remove: removeOther } = await tempDir();
      try {
        await (await openWriter(other, await playedStore(12), KEY, 5, key)).drainAll();
        const before = await verifyArchive(other, { encryptionKey: key });
        assert.deepEqual(before.problems, []);
        const [name] = (await readdir(join(other, 'money'))).filter((n) => n.includes('.jsonl.gz'));
        const path = join(other, 'money', name!);
        const bytes = await readFile(path);
        const batches = [...readDayFile(bytes, key !== undefined, key)];
        assert.ok(batches.length >= 4, `${batches.length} batches`);
        damage(bytes, batches[1]!);
        await writeFile(path, bytes);
        const after = await verifyArchive(other, { encryptionKey: key });
        const second = `bytes ${batches[1]!.offset}…${batches[1]!.offset + batches[1]!.length - 1}`;
        return { name: name!, second, before: before.records.get('money')!, after: after.records.get('money')!, problems: after.problems.map(formatProblem) };
      } finally {
        await removeOther();
      }
    }

    const cases: [string, (bytes: Buffer, batch: { offset: number; length: number }) => void, Buffer?][] = [
      ['a byte flipped in the middle of a plain batch', (bytes, b) => void (bytes[b.offset + (b.length >> 1)]! ^= 0x10)],
      ['a byte flipped in the gzip header of a plain batch', (bytes, b) => void (bytes[b.offset]! ^= 0x01)],
      ['a byte flipped in the trailer (CRC-32) of a plain batch', (bytes, b) => void (bytes[b.offset + b.length - 6]! ^= 0x01)],
      ['a byte flipped in the middle of an encrypted batch', (bytes, b) => void (bytes[b.offset + (b.length >> 1)]! ^= 0x10), encryptionKey('33'.repeat(32))],
      ['a byte flipped in the length of an encrypted batch', (bytes, b) => void (bytes[b.offset + 3]! ^= 0x04), encryptionKey('33'.repeat(32))],
    ];
    it('tells bytes between two batches that held no record as damage that lost none', async () => {
      const path = await dayFile(dir, 'money');
      const bytes = await readFile(path);
      const [, second] = [...readDayFile(bytes, false, undefined)];
      await writeFile(path, Buffer.concat([bytes.subarray(0, second!.offset), Buffer.from('garbage!'), bytes.subarray(second!.offset)]));
      const found = await problems();
      assert.deepEqual(found, [`money/${path.split('/').pop()}: batch 2 (bytes ${second!.offset}…${second!.offset + 7}) damaged (not the start of a gzip member): no record lost`]);
    });

    it('finds a batch written again after a damaged stretch as records added', async () => {
      const path = await dayFile(dir, 'money');
      const bytes = await readFile(path);
      const [first, second] = [...readDayFile(bytes, false, undefined)];
      const again = bytes.subarray(first!.offset, first!.offset + first!.length);
      await writeFile(path, Buffer.concat([bytes.subarray(0, second!.offset), Buffer.from('garbage!'), again, bytes.subarray(second!.offset)]));
      const found = await problems();
      assert.ok(found.some((p) => /:7: record 1 out of order or added: record 6 expected here$/.test(p)), found.join('\n'));
    });

    it('names the records of damage that runs from the end of one day file into the next', async () => {
      const { dir: two, remove: removeTwo } = await tempDir();
      try {
        const store = await playedStore(8);
        const writer = await openWriter(two, store, KEY, 5);
        await writer.drainAll();
        for (let i = 0; i < 8; i++) {
          const bought = await store.sales.purchase({ playerId: 'p1', requestId: `next-day-${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + 86_400_000 + i });
          assert.ok(bought.ok);
        }
        await writer.drainAll();
        const names = (await readdir(join(two, 'money'))).filter((n) => n.endsWith('.gz')).sort();
        const seqs = async () => (await verifyArchive(two)).records.get('money')!.map((r) => r.seq);
        const before = await seqs();
        const batchesOf = async (name: string) => [...readDayFile(await readFile(join(two, 'money', name)), false, undefined)];
        const [firstDay, nextDay] = [await batchesOf(names[0]!), await batchesOf(names[1]!)];
        const flip = async (name: string, batch: { offset: number; length: number }) => {
          const bytes = await readFile(join(two, 'money', name));
          bytes[batch.offset + (batch.length >> 1)]! ^= 0x10;
          await writeFile(join(two, 'money', name), bytes);
        };
        await flip(names[0]!, firstDay.at(-1)!);
        await flip(names[1]!, nextDay[0]!);
        // The records of the first day's last batch and of the next day's first batch are lost.
        const read = await seqs();
        const lost = before.filter((seq) => !read.includes(seq));
        const found = (await verifyArchive(two)).problems.map(formatProblem);
        assert.equal(found.length, 2, found.join('\n'));
        assert.match(found[0]!, new RegExp(`^money/${names[0]!.replaceAll('.', '\\.')}: batch ${firstDay.length} \\(bytes \\d+…\\d+\\) damaged \\(.+\\): its records unreadable$`));
        assert.match(found[1]!, new RegExp(`^money/${names[1]!.replaceAll('.', '\\.')}: batch 1 \\(bytes \\d+…\\d+\\) damaged \\(.+\\): records ${lost[0]}…${lost.at(-1)} unreadable$`));
      } finally {
        await removeTwo();
      }
    });

    for (const [what, damage, key] of cases) {
      it(`costs that batch only, named with its records, and every other record of the day verifies: ${what}`, async () => {
        const { name, second, before, after, problems: found } = await damaged(damage, key);
        // The second batch holds records 6…10 (five records to a seal).
        assert.equal(found.length, 1, found.join('\n'));
        assert.match(found[0]!, new RegExp(`^money/${name.replaceAll('.', '\\.')}: batch 2 \\(${second}\\) damaged \\(.+\\): records 6…10 unreadable$`));
        assert.deepEqual(after.map((r) => r.seq), before.map((r) => r.seq).filter((seq) => seq < 6 || seq > 10));
      });
    }
  });
});
