/**
 * `node --expose-gc --import tsx loadtest/measure-unit-memory.ts [--units 20000 --players 300]`:
 * the memory the embedded default keeps per unit sold, and who keeps it. Starts the embedded
 * server in this process (its own MemoryStore and MemoryActionLog, as `startServer` makes them,
 * held here to be looked into), plays `--units` units through its play service as the load
 * test's players choose them (loadtest/mix.ts: every game and price, AUTO half the time, the
 * lamp's two units a quarter of the time), publishing each win as a table does, then measures
 * the V8 heap in use after a full collection. Then it drops each holder in turn, collects again,
 * and counts what that freed: bytes a unit each. A measurement, not a test: docs/performance.md
 * holds the figures. No sockets: what Colyseus keeps per client is not per unit.
 */
import { Choices } from './mix';
import { loadConfig } from '../src/config';
import type { MemoryBooks } from '../src/dealer/memory/books';
import { MemoryStore } from '../src/dealer/memory/store';
import type { LiveUnit } from '../src/play/live-unit';
import { startServer } from '../src/server/app';
import { createLogger } from '../src/server/logger';
import { MemoryActionLog } from '../src/action-log/action-log';
import { optionsOrExit, whole } from '../tools/command-line';
import { HARNESS_STAKE_LIMIT_WEEK_CENTS } from '../tools/stake-limit';

const { units: UNITS, players: PLAYERS } = optionsOrExit<{ units: number; players: number }>({
  synopsis: 'node --expose-gc --import tsx loadtest/measure-unit-memory.ts [options]',
  defaults: { units: 20_000, players: 300 },
  flags: [
    { name: '--units', value: 'N', help: 'units sold while measuring, after 2,000 of warm-up (default 20000)', set: (o, v) => (o.units = whole(v, 1, 10_000_000)) },
    { name: '--players', value: 'N', help: 'players buying in turn (default 300)', set: (o, v) => (o.players = whole(v, 1, 100_000)) },
  ],
});
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --import tsx');

function heapUsed(): number {
  for (let i = 0; i < 3; i++) gc!();
  return process.memoryUsage().heapUsed;
}

const config = loadConfig({ PORT: '0', DEMO_BALANCE_CENTS: '100000000', LOG_LEVEL: 'silent' });
const log = new MemoryActionLog();
const store = new MemoryStore({ keepSettled: config.embeddedKeep, forgotten: (ids) => log.forget(ids) });
const server = await startServer(config, { logger: createLogger('silent'), stores: { dealer: store, actions: log } });
const { play, feed, dealer } = server.services;

const players = Array.from({ length: PLAYERS }, (_, i) => ({ player: { playerId: `p${i}`, pseudonym: `Joueur ${i}` }, choices: new Choices(i + 1) }));
for (const { player } of players) {
  await dealer.wallets.deposit(player.playerId, config.demoBalance, `demo-${player.playerId}`, Date.now());
  // As every harness's players do: no purchase passes without a weekly stake limit.
  await dealer.protections.changeProtection(player.playerId, { what: 'limits', limits: { stake_week: HARNESS_STAKE_LIMIT_WEEK_CENTS }, raiseDelayMs: 0 }, Date.now());
}

let sold = 0;
let requests = 0;
/** One purchase of each player in turn, each played to its end. */
async function playUnits(count: number): Promise<void> {
  while (sold < count) {
    for (const { player, choices } of players) {
      const game = choices.game();
      const bought = await play.buy(player, { game, stake: choices.stake(game), requestId: `r${requests++}`, picks: choices.picks(game, 0.25) });
      if (!bought.ok) throw new Error(`${bought.code}: ${bought.message}`);
      sold += bought.units.length;
      let units: readonly LiveUnit[] = bought.units;
      const ended = [...bought.ended];
      for (const action of choices.script(game, choices.chance(0.5))) {
        if (units.every((u) => u.finished)) break;
        const acted = await play.act(player.playerId, units, { action });
        if (acted.refusal) throw new Error(`${acted.refusal.code}: ${acted.refusal.message}`);
        units = acted.units;
        ended.push(...acted.ended);
      }
      for (const end of ended) feed.publish(end, player.pseudonym);
    }
  }
  await feed.settled();
}

await playUnits(2_000); // blocks printed, caches and code warm
const before = heapUsed();
const from = sold;
await playUnits(from + UNITS);
const after = heapUsed();
const units = sold - from;
const perUnit = (bytes: number) => Math.round(bytes / units);
console.log(`${units} units: heap in use ${(before / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MB, ${perUnit(after - before)} bytes a unit kept`);

/** The store's books and the log's insides, reached past `private` for this measurement only. */
const inside = (store as unknown as { roles: { sales: { books: MemoryBooks } } }).roles.sales.books;
const logs = (log as unknown as { logs: Map<string, unknown> }).logs;
const holders: [string, () => void][] = [
  ['action logs (MemoryActionLog: unitId → the JSON text of its entries)', () => logs.clear()],
  ['journal lines (a wallet\'s stake and prize lines)', () => inside.wallets.forEach((w) => (w.journal.length = 0))],
  ['idempotency records (a wallet\'s requests)', () => inside.wallets.forEach((w) => w.requests.clear())],
  ['history lists (a wallet\'s unit ids, its settled set)', () => inside.wallets.forEach((w) => ((w.sales.length = 0), w.settled.clear()))],
  ['settled units kept (store\'s bound, in order)', () => inside.settledKept.clear()],
  ['sales (unitId → Sale)', () => inside.sales.clear()],
];
// A holder holds every unit sold, the warm-up's too: what dropping it frees is divided by all of them.
let last = after;
const rows: { holder: string; bytesAUnit: number }[] = [];
for (const [holder, drop] of holders) {
  drop();
  const now = heapUsed();
  rows.push({ holder, bytesAUnit: Math.round((last - now) / sold) });
  last = now;
}
rows.push({ holder: 'the rest (not dropped above)', bytesAUnit: perUnit(after - before) - rows.reduce((n, r) => n + r.bytesAUnit, 0) });
console.table(rows);
console.log(JSON.stringify({ units, players: PLAYERS, bytesAUnit: perUnit(after - before), holders: rows }));
await server.stop();
process.exit(0);
