import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dayOfFile, KEYRING, readDayFile, STATE } from './files';
import { GENESIS, recordBytes, recordLine, sha256Hex, type ArchiveRecord } from './records';
import { Keyring, sealLine, type ArchiveSeal } from './seal';
import { readJson, readManifest, type WriterState } from './writer';

/** A problem `verify` found, with its place: the stream's file and the line (1-based; 0: the file or stream). */
export interface ArchiveProblem {
  readonly stream: string;
  readonly file: string;
  readonly line: number;
  readonly problem: string;
}

/** Where a stream's sealed chain ends: its last sealed record's number and hash (0 and GENESIS: none). */
export interface ArchiveHead {
  readonly stream: string;
  readonly seq: number;
  readonly hash: string;
}

export interface VerifiedArchive {
  readonly problems: readonly ArchiveProblem[];
  /** Each stream of the manifest's head: what a regulator keeps, to pass as `expect` next time. */
  readonly heads: readonly ArchiveHead[];
  /** The records read, per stream kept (`VerifyOptions.keep`), in file order (what reconciliation and export read). */
  readonly records: ReadonlyMap<string, readonly ArchiveRecord[]>;
  /** How many records each stream holds. */
  readonly counts: ReadonlyMap<string, number>;
  readonly seals: number;
}

export interface VerifyOptions {
  /** The public keys; default: the archive's keyring.json. */
  readonly keyring?: Keyring;
  /** The cold directory (retention.ts): its day files come first in each stream's chain. */
  readonly coldDir?: string | undefined;
  /** The AES-256-GCM key of encrypted files. */
  readonly encryptionKey?: Buffer | undefined;
  /**
   * Heads seen before (a regulator's last verification): each stream must still hold that
   * record, with that hash. The chain alone cannot tell records cut from its end (the newest
   * batches, a day file, a whole stream): these can.
   */
  readonly expect?: readonly ArchiveHead[];
  /**
   * The streams whose records are kept in `records`; default all. A busy day holds millions of
   * play records: a check of the chain alone keeps none, a reconciliation the money ones.
   */
  readonly keep?: (stream: string) => boolean;
}

export function formatProblem(p: ArchiveProblem): string {
  return `${p.stream}/${p.file}${p.line > 0 ? `:${p.line}` : ''}: ${p.problem}`;
}

/** Checks one stream's chain, sequence numbers and seals across its day files, in order. */
class StreamCheck {
  private expected = 1;
  private prevHash = GENESIS;
  private sealFrom = 1;
  private place = { file: '', line: 0 };
  seals = 0;
  count = 0;
  readonly records: ArchiveRecord[] = [];
  /** The last sealed record. */
  head = { seq: 0, hash: GENESIS };
  /** Whether the record the head seen before names was met. */
  private seenBeforeMet = false;

  constructor(
    private readonly stream: string,
    private readonly keyring: Keyring,
    private readonly problems: ArchiveProblem[],
    /** The head a regulator saw before, if given. */
    private readonly seenBefore: ArchiveHead | undefined,
    private readonly keep: boolean,
  ) {}

  at(file: string, line: number): void {
    this.place = { file, line };
  }

  report(problem: string): void {
    this.problems.push({ stream: this.stream, ...this.place, problem });
  }

  /**
   * A batch of `file` that cannot be read (`what`: which, and why). It is reported once the next
   * record read says which records it held; the chain, the numbers and the seals go on from that
   * record, so that the rest of the day still verifies.
   */
  damaged(file: string, what: string): void {
    this.reportDamage('its records unreadable');
    this.damage = { file, what };
  }

  private damage: { readonly file: string; readonly what: string } | undefined;

  private reportDamage(records: string): void {
    if (!this.damage) return;
    this.problems.push({ stream: this.stream, file: this.damage.file, line: 0, problem: `${this.damage.what}: ${records}` });
    this.damage = undefined;
  }

  record(r: ArchiveRecord): void {
    this.count++;
    if (this.keep) this.records.push(r);
    if (this.damage && r.seq >= this.expected) {
      this.reportDamage(r.seq > this.expected ? `records ${this.expected}…${r.seq - 1} unreadable` : 'no record lost');
      [this.expected, this.prevHash, this.sealFrom] = [r.seq, r.prev, r.seq];
    }
    if (r.stream !== this.stream) this.report(`record of stream ${JSON.stringify(r.stream)} in this stream`);
    const { t: _t, hash, ...body } = r;
    if (sha256Hex(recordBytes(body)) !== hash) this.report(`record ${r.seq} altered: its hash is not its content's`);
    if (r.seq > this.expected) this.report(`record${r.seq - this.expected > 1 ? `s ${this.expected}…${r.seq - 1}` : ` ${this.expected}`} missing before record ${r.seq}`);
    else if (r.seq < this.expected) this.report(`record ${r.seq} out of order or added: record ${this.expected} expected here`);
    if (r.prev !== this.prevHash) this.report(`chain broken at record ${r.seq}: its prev is not the hash of the record before it`);
    if (this.seenBefore !== undefined && r.seq === this.seenBefore.seq) {
      this.seenBeforeMet = true;
      if (r.hash !== this.seenBefore.hash) this.report(`record ${r.seq} is not the one seen before (its hash was ${this.seenBefore.hash})`);
    }
    this.expected = r.seq + 1;
    this.prevHash = hash;
  }

  seal(s: ArchiveSeal): void {
    this.seals++;
    const last = this.expected - 1;
    if (s.stream !== this.stream) this.report(`seal of stream ${JSON.stringify(s.stream)} in this stream`);
    if (s.first !== this.sealFrom || s.last !== last) this.report(`seal of records ${s.first}…${s.last} where ${this.sealFrom}…${last} precede it`);
    if (s.hash !== this.prevHash) this.report(`seal of records ${s.first}…${s.last}: its hash is not record ${last}'s`);
    if (!this.keyring.has(s.key)) this.report(`seal signed by key ${s.key}, not in the keyring`);
    else if (!this.keyring.verify(s)) this.report(`seal of records ${s.first}…${s.last}: bad signature`);
    this.sealFrom = last + 1;
    this.head = { seq: last, hash: this.prevHash };
  }

  /**
   * The stream's end: every record sealed; none cut off before the head seen before, nor before
   * the last record the writer's state (`state.json`, if any) says it sealed.
   */
  end(writerState: WriterState | undefined): void {
    const last = this.expected - 1;
    this.reportDamage(`the records after record ${last} unreadable`);
    if (this.sealFrom <= last) this.report(`records ${this.sealFrom}…${last} are not sealed`);
    if (this.seenBefore && this.seenBefore.seq > 0 && !this.seenBeforeMet) {
      this.report(`ends at record ${last}: record ${this.seenBefore.seq}, seen before, is gone (records cut from its end)`);
    }
    if (writerState && writerState.seq > last) {
      this.report(`ends at record ${last}: the writer's state says it sealed up to record ${writerState.seq} (records cut from its end)`);
    }
  }
}

/** Checks a batch's lines, numbered on from `line` (the file's lines before it); returns the last line's number. */
function checkLines(check: StreamCheck, name: string, text: string, line: number): number {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const text of lines) {
    check.at(name, ++line);
    let parsed: { t?: unknown };
    try {
      parsed = JSON.parse(text) as { t?: unknown };
    } catch {
      check.report('not a JSON line');
      continue;
    }
    // A field added to a line, or written twice, is not hashed: the line must be as written.
    const notAsWritten = 'its line is not as written (a field added, or one written twice)';
    if (parsed.t === 'r') {
      const record = parsed as ArchiveRecord;
      check.record(record);
      if (recordLine(record) !== text) check.report(`record ${String(record.seq)}: ${notAsWritten}`);
    } else if (parsed.t === 's') {
      const seal = parsed as ArchiveSeal;
      check.seal(seal);
      if (sealLine(seal) !== text) check.report(`seal: ${notAsWritten}`);
    } else check.report('neither a record nor a seal');
  }
  return line;
}

/**
 * `npm run archive -- verify <dir>` (docs/archive.md, "Verifying"): every stream of the
 * manifest, its day files in order, each line: a record's hash over its content, its sequence
 * number the one after the record before, its prev that record's hash; a seal's range the
 * records since the seal before, its hash the last one's, its signature by a key of the
 * keyring; each line as the writer wrote it. Anything altered, removed, reordered or added
 * breaks one of these where it is; records cut from a stream's end, against the heads seen
 * before (`expect`) or the writer's state.
 */
export async function verifyArchive(dir: string, options: VerifyOptions = {}): Promise<VerifiedArchive> {
  const problems: ArchiveProblem[] = [];
  const records = new Map<string, ArchiveRecord[]>();
  const counts = new Map<string, number>();
  const heads: ArchiveHead[] = [];
  let seals = 0;
  const manifest = await readManifest(dir);
  for (const head of options.expect ?? []) {
    if (!manifest.streams.includes(head.stream)) problems.push({ stream: head.stream, file: '', line: 0, problem: 'stream seen before, not in the manifest' });
  }
  const keyring = options.keyring ?? Keyring.parse(await readFile(join(dir, KEYRING), 'utf8'));
  const folders = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  for (const folder of folders) {
    if (!manifest.streams.includes(folder)) problems.push({ stream: folder, file: '', line: 0, problem: 'stream not in the manifest' });
  }
  for (const stream of manifest.streams) {
    const check = new StreamCheck(stream, keyring, problems, options.expect?.find((h) => h.stream === stream), options.keep?.(stream) ?? true);
    const files = new Map<string, string>();
    for (const base of options.coldDir === undefined ? [dir] : [options.coldDir, dir]) {
      for (const name of (await readdir(join(base, stream)).catch(() => [] as string[])).filter((n) => dayOfFile(n))) {
        if (files.has(name)) problems.push({ stream, file: name, line: 0, problem: 'in both the cold and the on-line directory' });
        files.set(name, join(base, stream, name));
      }
    }
    const names = [...files.keys()].sort();
    for (const name of names) {
      check.at(name, 0);
      let line = 0;
      let i = 0;
      try {
        for (const batch of readDayFile(await readFile(files.get(name)!), dayOfFile(name)!.encrypted, options.encryptionKey)) {
          i++;
          if ('damage' in batch) check.damaged(name, `batch ${i} (bytes ${batch.offset}…${batch.offset + batch.length - 1}) damaged (${batch.damage})`);
          else line = checkLines(check, name, batch.text, line);
        }
      } catch (err) {
        check.report(`unreadable: ${(err as Error).message}`);
        continue;
      }
    }
    check.at(names.at(-1) ?? '', 0);
    // The writer's state, if the archive has it (a copy may not).
    let state: WriterState | undefined;
    try {
      state = await readJson<WriterState>(join(dir, stream, STATE));
    } catch (err) {
      check.report(`the writer's state is unreadable: ${(err as Error).message}`);
    }
    check.end(state);
    if (options.keep?.(stream) ?? true) records.set(stream, check.records);
    counts.set(stream, check.count);
    heads.push({ stream, ...check.head });
    seals += check.seals;
  }
  return { problems, heads, records, counts, seals };
}
