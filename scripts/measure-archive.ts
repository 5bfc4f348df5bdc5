/**
 * `npm run measure:archive -- [--units 20000] [--seal-records 1000]`: what the archive costs per
 * unit on the embedded store: disk bytes per unit (gzip day files, seals included) and the
 * writer's CPU per unit beside the dealer's (purchase + settle) in the same run, so the ratio
 * holds on a loaded machine. Prints one JSON line. Not the load test's 500 + 500 figure.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SealingKey } from '../src/archive/seal';
import { ArchiveWriter } from '../src/archive/writer';
import { MemoryStore } from '../src/dealer/memory/store';
import { NOEL_TABLES } from '../src/games/noel-de-la-chance/prize-table';

const { values } = parseArgs({ options: { units: { type: 'string', default: '20000' }, 'seal-records': { type: 'string', default: '1000' } } });
const units = Number(values.units);
const table = NOEL_TABLES[0]!;
const now = Date.UTC(2026, 0, 1);
const store = new MemoryStore();
await store.emissions.openEmission({ emissionId: 'e', table, blockCount: Math.ceil(units / table.blockSize) + 1, now });
const players = 100;
for (let p = 0; p < players; p++) await store.wallets.deposit(`p${p}`, units * table.stake, `d${p}`, now);

const cpu = () => process.cpuUsage().user + process.cpuUsage().system;
const dealStart = cpu();
for (let i = 0; i < units; i++) {
  const bought = await store.sales.purchase({ playerId: `p${i % players}`, requestId: `r${i}`, game: table.game, stake: table.stake, now: now + i });
  if (!bought.ok) throw new Error(bought.code);
  await store.sales.settle(bought.sale.unitId, now + i);
}
const dealCpu = cpu() - dealStart;

const dir = await mkdtemp(join(tmpdir(), 'measure-archive-'));
try {
  const writer = await ArchiveWriter.open({ dir, outbox: store.outbox, key: SealingKey.generate(), sealRecords: Number(values['seal-records']), now: () => now });
  const writeStart = cpu();
  const records = await writer.drainAll();
  const writeCpu = cpu() - writeStart;
  let bytes = 0;
  for (const name of await readdir(join(dir, 'money'))) if (name.endsWith('.gz')) bytes += (await stat(join(dir, 'money', name))).size;
  console.log(JSON.stringify({
    units,
    records,
    diskBytesPerUnit: Math.round((bytes / units) * 10) / 10,
    gbPerMillionUnits: Math.round((bytes / units) * 1e6 / 1e9 * 1000) / 1000,
    dealerCpuUsPerUnit: Math.round(dealCpu / units),
    writerCpuUsPerUnit: Math.round(writeCpu / units),
    writerOverDealer: Math.round((writeCpu / dealCpu) * 1000) / 1000,
  }));
} finally {
  await rm(dir, { recursive: true, force: true });
}
