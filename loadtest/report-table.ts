import { readFileSync } from 'node:fs';
import type { Report } from './report';

/**
 * `npx tsx loadtest/report-table.ts reports/*.json`: one Markdown table row per report (the
 * tables of docs/performance.md are made this way).
 */

const HEADER = [
  'load', 'servers', 'think ms', 'units/s', 'msgs/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms',
  'feed age p99 ms', 'watch p99 ms', 'errors', 'server CPU %', 'harness CPU %', 'echo units/s', 'echo p99 ms', 'ratio units/s', 'ratio p99', 'books', 'other work CPU %',
  'server CPU ms a unit', 'server CPU ms a request (× echo)', 'harness CPU ms a unit',
];

export function row(r: Report, name: string): string[] {
  const run = r.run;
  const echo = r.baseline.echo;
  const servers = r.processes.filter((p) => p.name.startsWith('server'));
  const cpu = servers.map((p) => Math.round(p.cpuAvgPercent)).join(' / ');
  const redis = r.processes.find((p) => p.name === 'redis');
  const e = r.efficiency as Report['efficiency'] | undefined;
  return [
    `${name}: ${run.players.connected} players + ${run.spectators.connected} spectators`,
    `${r.mode.processes}${r.mode.redis ? ' + Redis' : ' embedded'}`,
    String(r.options.thinkMs),
    String(run.throughput.unitsPerSecond),
    String(Math.round(run.throughput.messagesPerSecond)),
    String(run.latency.actionToPatch.p50),
    String(run.latency.actionToPatch.p95),
    String(run.latency.actionToPatch.p99),
    String(run.latency.actionToPatch.max),
    run.spectatorDelays.feedAge?.count ? String(run.spectatorDelays.feedAge.p99) : '–',
    run.spectatorDelays.watch.count ? String(run.spectatorDelays.watch.p99) : '–',
    String(run.errors.total),
    `${cpu}${redis ? ` (redis ${Math.round(redis.cpuAvgPercent)})` : ''}`,
    String(Math.round(r.harness.cpuAvgPercent)),
    echo ? String(echo.throughput.unitsPerSecond) : '–',
    echo ? String(echo.latency.actionToPatch.p99) : '–',
    r.baseline.ratio ? String(r.baseline.ratio.unitsPerSecond) : '–',
    r.baseline.ratio ? String(r.baseline.ratio.p99) : '–',
    'checked' in r.books ? (r.books.ok ? `exact (${r.books.checked.units} units)` : `WRONG (${r.books.problemCount})`) : 'not checked',
    String(run.cpu?.others ?? '?'),
    // Reports written before the efficiency block have none.
    e ? String(e.game.cpuMsPerUnit) : '–',
    e ? `${e.game.cpuMsPerRequest}${e.ratio ? ` (×${e.ratio.cpuMsPerRequest})` : ''}` : '–',
    e ? String(e.game.harnessCpuMsPerUnit) : '–',
  ];
}

if (process.argv[1]?.endsWith('report-table.ts')) {
  const files = process.argv.slice(2);
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
  for (const file of files) {
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    const name = file.split('/').pop()!.replace(/\.json$/, '');
    lines.push(`| ${row(report, name).join(' | ')} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
