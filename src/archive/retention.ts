import { copyFile, mkdir, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { dayOfFile } from './files';

/**
 * The on-line window and the retention (docs/archive.md, "Retention"): day files older than
 * the window move from the archive's directory to the cold one, same names, so that `verify`
 * given both reads the chains whole; nothing is deleted: files past the retention are only
 * listed, for the operator to delete by its own procedure.
 */

/** The UTC day `months` months before `now`, `YYYY-MM-DD`. */
function monthsBefore(now: number, months: number): string {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.toISOString().slice(0, 10);
}

export interface ColdMove {
  /** `<stream>/<file>` moved to the cold directory. */
  readonly moved: readonly string[];
  /** `<stream>/<file>` of the cold directory past the retention (kept). */
  readonly pastRetention: readonly string[];
}

/** A rename, or a copy then unlink when the cold directory is on another file system. */
async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await unlink(from);
  }
}

export async function moveCold(dir: string, coldDir: string, streams: readonly string[], now: number, onlineMonths: number, retentionYears: number): Promise<ColdMove> {
  const online = monthsBefore(now, onlineMonths);
  const retained = monthsBefore(now, retentionYears * 12);
  const moved: string[] = [];
  const pastRetention: string[] = [];
  for (const stream of streams) {
    await mkdir(join(coldDir, stream), { recursive: true });
    const names = (await readdir(join(dir, stream)).catch(() => [] as string[])).filter((n) => dayOfFile(n)).sort();
    // The newest day file stays: the writer appends to it.
    for (const name of names.slice(0, -1)) {
      if (dayOfFile(name)!.day >= online) continue;
      await move(join(dir, stream, name), join(coldDir, stream, name));
      moved.push(`${stream}/${name}`);
    }
    for (const name of await readdir(join(coldDir, stream))) {
      const day = dayOfFile(name)?.day;
      if (day !== undefined && day < retained) pastRetention.push(`${stream}/${name}`);
    }
  }
  return { moved, pastRetention };
}
