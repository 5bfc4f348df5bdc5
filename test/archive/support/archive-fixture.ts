import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { SealingKey } from '../../../src/archive/seal';
import { ArchiveWriter } from '../../../src/archive/writer';
import { MemoryStore } from '../../../src/dealer/memory/store';
import { TEN_UNIT_TABLE } from '../../dealer/support/test-tables';

export const T0 = 1_700_000_000_000;

export async function tempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'archive-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A memory store with a deposit, `units` purchases each settled, of player `p1`. */
export async function playedStore(units: number, playerId = 'p1', store = new MemoryStore()): Promise<MemoryStore> {
  if ((await store.emissions.listEmissions()).length === 0) await store.emissions.openEmission({ emissionId: 'e', table: TEN_UNIT_TABLE, blockCount: 20, now: T0 });
  await store.wallets.deposit(playerId, 100_000, `${playerId}-d`, T0);
  for (let i = 0; i < units; i++) {
    const bought = await store.sales.purchase({ playerId, requestId: `${playerId}-r${i}`, game: TEN_UNIT_TABLE.game, stake: TEN_UNIT_TABLE.stake, now: T0 + i });
    if (!bought.ok) throw new Error(bought.code);
    await store.sales.settle(bought.sale.unitId, T0 + i);
  }
  return store;
}

export function openWriter(dir: string, store: MemoryStore, key: SealingKey, sealRecords = 5, encryptionKey?: Buffer): Promise<ArchiveWriter> {
  return ArchiveWriter.open({ dir, outbox: store.outbox, key, sealRecords, now: () => T0, encryptionKey });
}

/** The only day file of `stream`. */
export async function dayFile(dir: string, stream: string): Promise<string> {
  const files = (await readdir(join(dir, stream))).filter((n) => n.endsWith('.gz'));
  if (files.length !== 1) throw new Error(`${files.length} day files`);
  return join(dir, stream, files[0]!);
}

/** Rewrites a plain day file's lines with `change` (as someone with the disk could). */
export async function tamper(path: string, change: (lines: string[]) => string[]): Promise<void> {
  const lines = gunzipSync(await readFile(path)).toString('utf8').split('\n').filter((l) => l !== '');
  await writeFile(path, gzipSync(`${change(lines).join('\n')}\n`));
}
