import { randomInt } from 'node:crypto';
import { readCommandLine } from '../../tools/command-line';
import { runCommand } from '../cli';
import { chaosCommandLine } from './options';
import { runChaos, type ChaosReport } from './run';

/**
 * `npm run chaos -- --minutes M [--seed S]`: progress and faults on stderr; the figures on
 * stdout, the JSON summary as its last line. Exit 0 when there is no mismatch and nothing
 * failed, 1 otherwise, 2 on bad options. SIGINT, SIGTERM, a failure or the time bound: every
 * process it started is killed on the way out (tools/child-processes.ts).
 */

function format(r: ChaosReport): string {
  const kinds = (counts: Record<string, number>) => Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(', ');
  const lines = [
    `chaos run: seed ${r.seed}, ${r.options.minutes} min of faults, ${r.options.processes} server processes, ${r.options.players} players, ${r.options.feedSpectators} feed spectators`,
    `  command: ${r.command}`,
    `faults injected: ${r.faults.injected} of ${r.faults.planned} planned (${kinds(r.faults.byKind)})`,
    `  fault effects: ${r.serverExits.count} server process exits of their own (each restarted)`,
    `units: ${r.units.bought} bought, ${r.units.finished} finished (${r.units.seenFinishedByPlayer} seen finished by their player's client, ${r.units.finishedUnseen} finished while it was away), ${r.units.unfinished} unfinished`,
    `books: ${r.books.checked.players} players, ${r.books.checked.units} units, ${r.books.checked.recallsRescored} recalls re-scored, ${r.books.checked.blocks} blocks, stakes ${r.books.checked.stakes} c, prizes ${r.books.checked.prizes} c: ${r.books.problemCount} problems`,
    `archive: ${r.archive ? `${r.archive.records} records, ${r.archive.seals} seals, ${r.archive.onItsWay} money entries on their way, ${r.archive.writerOutages} writer outages through the faults (its drains failing, retried): ${r.archive.problems} problems (chains, seals, sequence, against the journals)` : 'not checked (the run stopped before)'}`,
    `feed: ${r.feed.wins} wins checked: ${r.feed.inOrder} after the player's client, ${r.feed.serverCompleted} of units the server finished, ${r.feed.releasedUnseen} released unseen, ${r.feed.repeated} repeated; ${r.feed.ahead} ahead of the player, ${r.feed.phantom} matching no unit (${r.feed.rejoins} spectator rejoins)`,
    `after the faults: ${r.afterFaults.processes} processes checked (feed, /tables, sales), ${r.afterFaults.sold} (game, price) sold, ${r.afterFaults.failed} failures`,
    `client errors met (retried or counted): ${Object.entries(r.clientErrors).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
    ...r.problems.slice(0, 20).map((p) => `  mismatch: ${p}`),
    ...r.failures.map((f) => `  failure: ${f}`),
    `mismatches: ${r.mismatches}`,
  ];
  return lines.join('\n');
}

runCommand('chaos run', async (bound) => {
  const parsed = readCommandLine(chaosCommandLine(() => randomInt(0, 2 ** 31 - 1)), process.argv.slice(2));
  if (!('options' in parsed)) return parsed.code;
  const { options } = parsed;
  const command = `npm run chaos -- ${process.argv.slice(2).join(' ')}${process.argv.includes('--seed') ? '' : ` --seed ${options.seed}`}`.replace(/\s+/g, ' ');
  process.stderr.write(`seed ${options.seed} (repeat with: ${command})\n`);
  // Bounded: the window, the ramp (120 s), the drain and the books (300 s), and a margin.
  bound(options.minutes * 60 + 120 + options.drainS * 2 + 300 + 180);
  const report = await runChaos(options, command, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(`${format(report)}\n${JSON.stringify(report)}\n`);
  return report.ok ? 0 : 1;
});
