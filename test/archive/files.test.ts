import { strict as assert } from 'node:assert';
import { createCipheriv, randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { dayOfFile, encodeChunk, encryptionKey, readDayFile } from '../../src/archive/files';

describe("the archive's day files", () => {
  const KEY = encryptionKey('ab'.repeat(32));
  const chunks = [['{"a":1}', '{"b":2}'], ['{"c":3}'], ['{"d":4}', '{"e":5}']];
  const texts = chunks.map((lines) => lines.map((l) => `${l}\n`).join(''));

  /** A frame as docs/archive.md describes it: length, IV, AES-256-GCM ciphertext of `plaintext`, tag. */
  function frame(plaintext: Buffer): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', KEY, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(ciphertext.length);
    return Buffer.concat([length, iv, ciphertext, cipher.getAuthTag()]);
  }

  /** Each batch's place, and its text or its damage. */
  const places = (bytes: Buffer, encrypted: boolean): { offset: number; length: number; text?: string; damage?: string }[] =>
    [...readDayFile(bytes, encrypted, encrypted ? KEY : undefined)].map((b) => ({ offset: b.offset, length: b.length, ...('text' in b ? { text: b.text } : { damage: b.damage }) }));

  it('takes an encryption key of 64 hex digits only', () => {
    assert.deepEqual(encryptionKey('aB'.repeat(32)), Buffer.from('ab'.repeat(32), 'hex'));
    for (const bad of ['a'.repeat(63), 'a'.repeat(65), `${'a'.repeat(63)}g`, ` ${'a'.repeat(64)}`]) {
      assert.throws(() => encryptionKey(bad), /^RangeError: the archive encryption key is 64 hex digits \(32 bytes\)$/, JSON.stringify(bad));
    }
  });

  it('names day files by their UTC day, plain or encrypted, and nothing else', () => {
    assert.deepEqual(dayOfFile('2023-11-14.jsonl.gz'), { day: '2023-11-14', encrypted: false });
    assert.deepEqual(dayOfFile('2023-11-14.jsonl.gz.aes'), { day: '2023-11-14', encrypted: true });
    for (const name of ['x2023-11-14.jsonl.gz', '2023-11-14.jsonl.gz.tmp', '2023-11-14.jsonl.gz.aes.tmp', 'state.json']) assert.equal(dayOfFile(name), undefined, name);
  });

  for (const encrypted of [false, true]) {
    const encode = (lines: string[]) => encodeChunk(lines, encrypted ? KEY : undefined);
    const kind = encrypted ? 'an encrypted' : 'a plain';

    it(`reads ${kind} day file batch by batch, each with its place`, () => {
      const parts = chunks.map(encode);
      const bytes = Buffer.concat(parts);
      const offsets = parts.map((_, i) => parts.slice(0, i).reduce((n, p) => n + p.length, 0));
      assert.deepEqual(places(bytes, encrypted), parts.map((p, i) => ({ offset: offsets[i], length: p.length, text: texts[i] })));
    });

    it(`costs a damaged batch of ${kind} day file only, found again at the next whole one`, () => {
      const parts = chunks.map(encode);
      const bytes = Buffer.concat(parts);
      bytes[parts[0]!.length + (parts[1]!.length >> 1)]! ^= 0x10;
      const read = places(bytes, encrypted);
      assert.deepEqual(read.map((b) => [b.offset, b.length, b.text ?? 'damaged']), [
        [0, parts[0]!.length, texts[0]],
        [parts[0]!.length, parts[1]!.length, 'damaged'],
        [parts[0]!.length + parts[1]!.length, parts[2]!.length, texts[2]],
      ]);
    });

    it(`tells ${kind} file cut short in its last batch, from that batch to the end`, () => {
      const parts = chunks.map(encode);
      const bytes = Buffer.concat(parts).subarray(0, -4);
      const last = places(bytes, encrypted).at(-1)!;
      assert.deepEqual(last, { offset: parts[0]!.length + parts[1]!.length, length: parts[2]!.length - 4, damage: encrypted ? 'its length runs past the end of the file' : 'cut short' });
    });
  }

  it('tells an encrypted file whose last frame is shorter than a frame can be', () => {
    const first = encodeChunk(chunks[0]!, KEY);
    const bytes = Buffer.concat([first, Buffer.alloc(31, 1)]);
    assert.deepEqual(places(bytes, true).at(-1), { offset: first.length, length: 31, damage: 'cut short' });
    // 32 bytes can be a frame (length, IV, no ciphertext, tag): one that is no gzip member.
    assert.deepEqual(places(Buffer.concat([first, Buffer.alloc(32)]), true).at(-1), { offset: first.length, length: 32, damage: 'not a frame: its plaintext does not start as a gzip member' });
  });

  it('costs a damaged first batch of a plain day file only', () => {
    const parts = chunks.map((lines) => encodeChunk(lines, undefined));
    const bytes = Buffer.concat(parts);
    bytes[parts[0]!.length >> 1]! ^= 0x10;
    assert.deepEqual(places(bytes, false).map((b) => [b.offset, b.length, b.text ?? 'damaged']), [
      [0, parts[0]!.length, 'damaged'],
      [parts[0]!.length, parts[1]!.length, texts[1]],
      [parts[0]!.length + parts[1]!.length, parts[2]!.length, texts[2]],
    ]);
  });

  it('refuses a frame whose plaintext is no gzip member, or holds bytes after its member', () => {
    assert.deepEqual(places(frame(Buffer.from('hello, not gzip')), true).map((b) => b.damage), ['not a frame: its plaintext does not start as a gzip member']);
    assert.deepEqual(places(frame(Buffer.concat([gzipSync('{"a":1}\n'), Buffer.from('more')])), true).map((b) => b.damage), ['bytes after its gzip member']);
  });

  it("refuses a gzip member whose header is not the writer's (a flag set)", () => {
    const member = encodeChunk(chunks[0]!, undefined);
    member[3] = 0x01; // FTEXT: gunzip would read it, the writer never writes it
    assert.deepEqual(places(member, false).map((b) => b.damage), ['not the start of a gzip member']);
  });

  it('asks for the key of an encrypted file', () => {
    assert.throws(() => [...readDayFile(encodeChunk(chunks[0]!, KEY), true, undefined)], /an encrypted archive file needs the archive encryption key/);
  });
});
