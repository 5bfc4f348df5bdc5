import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, truncate, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ArchiveOutbox, OutboxStream } from '../dealer/outbox';
import { dayFileName, dayOf, dayOfFile, encodeChunk, KEYRING, MANIFEST, STATE } from './files';
import { chainRecord, GENESIS, recordLine, type ArchiveRecord } from './records';
import { Keyring, sealLine, type SealingKey } from './seal';

/** Where a stream's chain stands: its last sealed record, and the file bytes that hold it. */
export interface WriterState {
  readonly seq: number;
  readonly hash: string;
  /** The outbox id of the last sealed record (undefined: none yet). */
  readonly src: string | undefined;
  /** The day file written last and its length after that seal. */
  readonly file: string | undefined;
  readonly length: number;
}

const START: WriterState = { seq: 0, hash: GENESIS, src: undefined, file: undefined, length: 0 };

export interface ArchiveWriterOptions {
  readonly dir: string;
  readonly outbox: ArchiveOutbox;
  readonly key: SealingKey;
  /** AES-256-GCM key of the files at rest; undefined: plain gzip. */
  readonly encryptionKey?: Buffer | undefined;
  /** Records per seal at most (N). */
  readonly sealRecords: number;
  readonly now: () => number;
  /** How day files are opened for writing; default: node:fs (a test injects failing and short writes). */
  readonly dayFiles?: DayFileOpener;
  /** How a stream's state is made durable once renamed into place: its directory fsynced (a test injects a failure). */
  readonly syncStateDirectory?: (dir: string) => Promise<void>;
}

/** A day file open for writing: what the writer's appends need of node:fs's FileHandle. */
export interface DayFileHandle {
  /** May write fewer bytes than asked, without an error (as node:fs may). */
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  truncate(length: number): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export type DayFileOpener = (path: string) => Promise<DayFileHandle>;

/** Opens a day file for writing at chosen places, created if missing; players' data: readable by the operator's group (the regulator's access), no one else. */
const openDayFile: DayFileOpener = (path) => open(path, constants.O_WRONLY | constants.O_CREAT, 0o640);

/**
 * Writes `chunk` at byte `length` of the day file, the file's length at the last seal, and
 * fsyncs: bytes after that length (a batch that failed before) are cut first, a short write is
 * written on until whole, and a write or fsync that fails (ENOSPC, EIO) cuts the file back to
 * that length before the error goes on, so that no batch is ever half in a file.
 */
async function writeBatch(openFile: DayFileOpener, path: string, length: number, chunk: Buffer): Promise<void> {
  const handle = await openFile(path);
  try {
    await handle.truncate(length);
    for (let written = 0; written < chunk.length; ) {
      const { bytesWritten } = await handle.write(chunk, written, chunk.length - written, length + written);
      if (bytesWritten <= 0) throw new Error(`no byte written to ${path} at ${length + written}`);
      written += bytesWritten;
    }
    await handle.sync();
  } catch (err) {
    // If this fails too, the next batch's truncate, or the restart's, cuts it.
    await handle.truncate(length).then(() => handle.sync()).catch(() => undefined);
    throw err;
  } finally {
    await handle.close();
  }
}

/** The archive's manifest: the streams it holds, each its own chain. */
export interface Manifest {
  readonly format: 'instant-games-archive/1';
  readonly streams: readonly string[];
}

/** The manifest of the archive in `dir`. */
export async function readManifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Manifest;
}

/** The JSON file at `path`; undefined when there is none. */
export async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Makes the names in directory `dir` durable: a file created or renamed there is in its
 * directory's entries, which a power loss could lose though the file's own bytes were fsynced.
 */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes `text` to `path` whole or not at all (a temporary file, fsynced, renamed over, the rename made durable). */
async function writeAtomically(path: string, text: string, syncDir = syncDirectory): Promise<void> {
  const temporary = `${path}.tmp`;
  const file = await open(temporary, 'w');
  try {
    await file.writeFile(text);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  await syncDir(dirname(path));
}

/**
 * The archive writer (docs/archive.md, "The writer"): drains each outbox stream in order into
 * chained records, appends them with their seal to the day file, fsyncs, records where the
 * chain stands (state.json, renamed over), and only then trims the outbox. A crash anywhere
 * leaves the outbox holding everything after the last state: on open, bytes written after it
 * are cut and drained again, so the archive has no gap and no duplicate. One writer per
 * archive directory.
 */
export class ArchiveWriter {
  private readonly states = new Map<OutboxStream, WriterState>();
  /** Streams whose outbox may still hold entries sealed already: every stream at start (a crash between seal and trim). */
  private readonly untrimmed = new Set<OutboxStream>();

  private constructor(private readonly options: ArchiveWriterOptions) {}

  static async open(options: ArchiveWriterOptions): Promise<ArchiveWriter> {
    if (!Number.isSafeInteger(options.sealRecords) || options.sealRecords < 1) throw new RangeError(`sealRecords must be a whole number ≥ 1: ${options.sealRecords}`);
    const writer = new ArchiveWriter(options);
    await mkdir(options.dir, { recursive: true });
    // A stream once listed stays listed (a Redis moved to a cluster keeps `money` and gains its shards).
    const listed = (await readJson<Manifest>(join(options.dir, MANIFEST)))?.streams ?? [];
    const streams = [...listed, ...options.outbox.streams.filter((s) => !listed.includes(s))];
    const manifest: Manifest = { format: 'instant-games-archive/1', streams };
    // Written only when it changes: a writer restarted on a full disk must start, to drain once space returns.
    if (streams.length !== listed.length) await writeAtomically(join(options.dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // The signing key joins the keyring; the keys before it stay, so their seals still verify.
    const keyringPath = join(options.dir, KEYRING);
    const text = await readFile(keyringPath, 'utf8').catch(() => undefined);
    const keyring = text === undefined ? new Keyring() : Keyring.parse(text);
    if (!keyring.has(options.key.id)) {
      keyring.add(options.key.published);
      await writeAtomically(keyringPath, keyring.toJson());
    }
    for (const stream of options.outbox.streams) {
      writer.states.set(stream, await writer.recover(stream));
      writer.untrimmed.add(stream);
    }
    return writer;
  }

  /** Where `stream`'s chain stands. */
  state(stream: OutboxStream): WriterState {
    return this.states.get(stream)!;
  }

  /** Drains every stream until empty; returns how many records it archived. */
  async drainAll(): Promise<number> {
    let total = 0;
    for (const stream of this.options.outbox.streams) {
      for (let written = -1; written !== 0; total += written) written = await this.drain(stream);
    }
    return total;
  }

  /**
   * Drains every `sealMs` until `stop` is called (a full batch is sealed at once: a seal every N
   * records or S seconds); a drain that fails (Redis away, the disk full) is tried again at the
   * next tick, `drained` is told of each that went through. Returns the stop, which waits for
   * the drain under way.
   */
  run(sealMs: number, onError: (err: unknown) => void, drained: (records: number) => void = () => undefined): () => Promise<void> {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    const tick = () => {
      running = this.drainAll().then(drained, (err: unknown) => onError(err)).then(() => {
        if (!stopped) timer = setTimeout(tick, sealMs);
      });
    };
    tick();
    return async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    };
  }

  /** Archives and seals up to N records of `stream`; returns how many (0: nothing waiting). */
  async drain(stream: OutboxStream): Promise<number> {
    const { dir, outbox, key, encryptionKey, sealRecords, now } = this.options;
    const state = this.state(stream);
    // A trim that failed after its seal (Redis away) is done again, once the state's name is
    // durable (its directory's fsync may be what failed): the outbox holds only what waits.
    if (this.untrimmed.has(stream) && state.src !== undefined) {
      await syncDirectory(join(dir, stream));
      await outbox.trim(stream, state.src);
      this.untrimmed.delete(stream);
    }
    const entries = await outbox.read(stream, state.src, sealRecords);
    if (entries.length === 0) return 0;
    const records: ArchiveRecord[] = [];
    let prev = state.hash;
    for (const [i, entry] of entries.entries()) {
      const record = chainRecord(stream, entry, state.seq + 1 + i, prev);
      records.push(record);
      prev = record.hash;
    }
    const last = records.at(-1)!;
    const seal = key.seal(stream, state.seq + 1, last.seq, last.hash, now());
    // Files follow the chain: a batch goes to its first record's day, never to a day before the last file's.
    const day = [dayOf(records[0]!.at), state.file?.slice(0, 10) ?? ''].sort().at(-1)!;
    const file = dayFileName(day, encryptionKey !== undefined);
    const chunk = encodeChunk([...records.map(recordLine), sealLine(seal)], encryptionKey);
    const length = file === state.file ? state.length : 0;
    await writeBatch(this.options.dayFiles ?? openDayFile, join(dir, stream, file), length, chunk);
    // A new day file's name must outlast a power loss before the state that counts it does.
    if (file !== state.file) await syncDirectory(join(dir, stream));
    const next: WriterState = { seq: last.seq, hash: last.hash, src: last.src, file, length: length + chunk.length };
    await this.record(stream, next, length);
    this.untrimmed.add(stream);
    await outbox.trim(stream, last.src);
    this.untrimmed.delete(stream);
    return records.length;
  }

  /**
   * Records `next`, the state after a batch written at byte `length` of its file. If the state
   * cannot be written (the disk full), the batch is cut back, so that file and state agree now,
   * not only after a restart; unless the state was renamed over before the failure (its
   * directory's fsync failing): then it counts the batch, which stays.
   */
  private async record(stream: OutboxStream, next: WriterState, length: number): Promise<void> {
    const path = join(this.options.dir, stream, STATE);
    try {
      await writeAtomically(path, `${JSON.stringify(next)}\n`, this.options.syncStateDirectory);
    } catch (err) {
      const onDisk = await readJson<WriterState>(path).catch(() => undefined);
      if (JSON.stringify(onDisk) === JSON.stringify(next)) {
        this.states.set(stream, next);
        this.untrimmed.add(stream);
      } else await truncate(join(this.options.dir, stream, next.file!), length).catch(() => undefined);
      throw err;
    }
    this.states.set(stream, next);
  }

  /** Reads `stream`'s state and cuts what a crash wrote after it. */
  private async recover(stream: OutboxStream): Promise<WriterState> {
    const folder = join(this.options.dir, stream);
    await mkdir(folder, { recursive: true });
    const state = (await readJson<WriterState>(join(folder, STATE))) ?? START;
    const lastDay = state.file === undefined ? '' : dayOfFile(state.file)!.day;
    for (const name of (await readdir(folder)).filter((n) => dayOfFile(n)).sort()) {
      const path = join(folder, name);
      // A day after the state's was begun by a batch never sealed in a state: drained again.
      if (dayOfFile(name)!.day > lastDay) await unlink(path);
      else if (name === state.file && (await stat(path)).size > state.length) await truncate(path, state.length);
    }
    return state;
  }
}
