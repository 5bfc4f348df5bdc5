/**
 * `npm run reconcile -- --server <file|url> --operator <file|url> [--day YYYY-MM-DD]`: the game
 * server's wallet ledger against the operator's, both NDJSON `LedgerLine`s (docs/integration.md,
 * "Reconciliation"). Prints the totals per day (Europe/Paris) and player, then every difference.
 * A URL is fetched with `Authorization: Bearer $RECONCILE_SERVER_TOKEN` (or
 * `$RECONCILE_OPERATOR_TOKEN`) when set.
 * Exit codes: 0 the ledgers agree, 1 differences found, 2 bad command line, 3 a source unreadable.
 */
import { readFile } from 'node:fs/promises';
import { formatEuros } from '../src/money';
import type { LedgerLine } from '../src/protocol/operator-api';
import { parseLedger, reconcile, type Difference, type TotalsRow } from '../src/wallet/reconcile';
import { optionsOrExit, UsageError, type CommandLine } from '../tools/command-line';

interface Options {
  readonly server: string;
  readonly operator: string;
  readonly day: string | undefined;
}

const COMMAND: CommandLine<Options> = {
  synopsis: 'npm run reconcile -- --server <file|url> --operator <file|url> [--day YYYY-MM-DD]',
  defaults: { server: '', operator: '', day: undefined },
  flags: [
    { name: '--server', value: 'FILE|URL', help: "the game server's ledger (GET /admin/wallet-ledger?day=…)", set: (o, v) => (o.server = v) },
    { name: '--operator', value: 'FILE|URL', help: "the operator's ledger (the reference's GET /ledger?day=…)", set: (o, v) => (o.operator = v) },
    {
      name: '--day',
      value: 'YYYY-MM-DD',
      help: "only that day's movements (Europe/Paris), each against the whole other side",
      set: (o, v) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new UsageError(`must be YYYY-MM-DD, got ${JSON.stringify(v)}`);
        o.day = v;
      },
    },
  ],
  finish: (o) => {
    if (!o.server || !o.operator) throw new UsageError('--server and --operator are both needed');
  },
};

async function readSource(source: string, token: string | undefined): Promise<LedgerLine[]> {
  if (!/^https?:\/\//.test(source)) {
    const text = await readFile(source, 'utf8').catch((err: NodeJS.ErrnoException) => {
      throw new Error(err.code === 'ENOENT' ? `${source}: no such file` : `${source}: ${err.message}`);
    });
    return parseLedger(text, source);
  }
  const res = await fetch(source, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(60_000) }).catch((err: Error) => {
    throw new Error(`${source}: ${err.message}`);
  });
  if (!res.ok) throw new Error(`${source}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  return parseLedger(await res.text(), source);
}

function euros(cents: number): string {
  return formatEuros(cents).padStart(10);
}

function totalsTable(rows: readonly TotalsRow[]): string {
  const head = `${'day'.padEnd(11)}${'player'.padEnd(24)}${'server staked'.padStart(14)}${'won'.padStart(10)}${'operator staked'.padStart(16)}${'won'.padStart(10)}`;
  const lines = rows.map((r) => {
    const mark = r.server.staked !== r.operator.staked || r.server.won !== r.operator.won ? '  ≠' : '';
    return `${r.day.padEnd(11)}${r.player.padEnd(24)}${euros(r.server.staked).padStart(14)}${euros(r.server.won)}${euros(r.operator.staked).padStart(16)}${euros(r.operator.won)}${mark}`;
  });
  return [head, ...lines].join('\n');
}

function describe(d: Difference): string {
  switch (d.kind) {
    case 'one_side_only':
      return `only on the ${d.side}: ${d.line.kind} ${d.line.transactionId} (player ${d.line.player}, round ${d.line.round}, ${formatEuros(d.line.amount)} €)`;
    case 'amount':
      return `amount differs: ${d.transactionId}: server ${formatEuros(d.server)} €, operator ${formatEuros(d.operator)} €`;
    case 'rolled_back_on_one_side':
      return `debit ${d.transactionId} (${formatEuros(d.amount)} €) stands on the ${d.standingOn} and is rolled back on the ${d.standingOn === 'server' ? 'operator' : 'server'}`;
    case 'mismatch':
      return `${d.transactionId}: ${d.field} differs: server ${JSON.stringify(d.server)}, operator ${JSON.stringify(d.operator)}`;
    case 'duplicate':
      return `${d.transactionId} is on ${d.lines} lines of the ${d.side}'s ledger`;
  }
}

async function main(): Promise<number> {
  const options = optionsOrExit(COMMAND);
  let sides: [LedgerLine[], LedgerLine[]];
  try {
    sides = await Promise.all([readSource(options.server, process.env['RECONCILE_SERVER_TOKEN']), readSource(options.operator, process.env['RECONCILE_OPERATOR_TOKEN'])]);
  } catch (err) {
    console.error(`reconcile: ${(err as Error).message}`);
    return 3;
  }
  const { totals, differences } = reconcile(sides[0], sides[1], options.day);
  console.log(totalsTable(totals));
  console.log(`\n${differences.length} difference${differences.length === 1 ? '' : 's'}${options.day ? ` on ${options.day}` : ''} (${sides[0].length} server lines, ${sides[1].length} operator lines)`);
  for (const d of differences) console.log(`  ${describe(d)}`);
  return differences.length === 0 ? 0 : 1;
}

process.exitCode = await main();
