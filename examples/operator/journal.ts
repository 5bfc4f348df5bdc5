import { mkdirSync, openSync, readFileSync, closeSync, ftruncateSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The reference operator's ledger on disk: an append-only NDJSON file, one record a line. A
 * record is in memory as soon as it is appended, and on disk (written and fdatasync'd) before
 * any answer that depends on it leaves: appends made while a write is under way go together in
 * the next one (a group commit), so one fdatasync covers many movements under load. At start
 * the file is read back whole; a last line cut short by a crash in the middle of a write was
 * never answered, and is dropped.
 */
export class Journal<R> {
  private buffer: string[] = [];
  /** The write under way. */
  private writing: Promise<void> = Promise.resolve();
  /** The next write, which the records appended since the one under way will go in. */
  private next: Promise<void> | undefined;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
    private readonly onFailure: (err: Error) => void,
  ) {}

  /** Opens (or creates) the file and reads its records back. */
  static async open<R>(path: string, onFailure: (err: Error) => void): Promise<{ journal: Journal<R>; records: R[] }> {
    mkdirSync(dirname(path), { recursive: true });
    const records = readRecords<R>(path);
    return { journal: new Journal<R>(path, await open(path, 'a'), onFailure), records };
  }

  /** Appends a record; resolves once it is on disk. */
  append(record: R): Promise<void> {
    this.buffer.push(`${JSON.stringify(record)}\n`);
    this.next ??= this.writeNext();
    return this.next;
  }

  /** Resolves once every record appended so far is on disk. */
  durable(): Promise<void> {
    return this.next ?? this.writing;
  }

  async close(): Promise<void> {
    await this.durable();
    await this.file.close();
  }

  private async writeNext(): Promise<void> {
    await this.writing;
    const text = this.buffer.join('');
    this.buffer = [];
    this.next = undefined;
    this.writing = this.write(text);
    return this.writing;
  }

  private async write(text: string): Promise<void> {
    try {
      await this.file.write(text);
      await this.file.datasync();
    } catch (err) {
      // Memory is now ahead of the disk: the one safe way on is to stop and read the disk back.
      this.onFailure(err as Error);
      throw err;
    }
  }
}

function readRecords<R>(path: string): R[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const complete = text.lastIndexOf('\n') + 1;
  if (complete < text.length) {
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, Buffer.byteLength(text.slice(0, complete)));
    closeSync(fd);
  }
  return text
    .slice(0, complete)
    .split('\n')
    .filter((line) => line !== '')
    .map((line, i) => {
      try {
        return JSON.parse(line) as R;
      } catch {
        throw new Error(`${path}: line ${i + 1} is not JSON: the ledger is damaged`);
      }
    });
}
