/**
 * `npm run measure:protection-cost [-- --purchases 20000 --rounds 6]`: the CPU that player
 * protection adds to a purchase's wallet step in Redis's Lua (docs/lab/dealer.md, "After player
 * protection"). One script per variant buys `--purchases` times on one wallet (a few units in
 * play), timed by Redis's own main-thread CPU (`INFO cpu`), not the wall clock, so that other
 * work on the machine weighs less; the variants alternate, `--rounds` times:
 * - bare: the wallet step without protection (read the balance and counts, write them back);
 * - allowance: with protection as the purchase runs it (src/protection/lua/includes/protection.lua), within
 *   the allowance after the first purchase;
 * - in full: with protection checked in full every time (checkInFull, as past the allowance).
 * Then the embedded default's checks, in JavaScript: the memory store's `stakeRefusal` and
 * `countStake` as a purchase calls them (limits set, a session open, purchases a second apart),
 * timed by the process's own CPU (`process.cpuUsage`), against the same loop without them.
 * Prints the medians in µs per purchase and, last, the same as JSON.
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { countStake, newProtection, stakeRefusal, type ProtectedWallet } from '../src/protection/memory';
import type { PurchaseRequest } from '../src/dealer/types';
import { median } from '../tools/median';
import { optionsOrExit, whole } from '../tools/command-line';
import { RedisServer } from '../tools/redis-server';

const { purchases: PURCHASES, rounds: ROUNDS } = optionsOrExit<{ purchases: number; rounds: number }>({
  synopsis: 'npm run measure:protection-cost -- [--purchases 20000] [--rounds 6]',
  defaults: { purchases: 20_000, rounds: 6 },
  flags: [
    { name: '--purchases', value: 'N', help: 'purchases per variant and round (default 20000)', set: (o, v) => (o.purchases = whole(v, 100, 10_000_000)) },
    { name: '--rounds', value: 'N', help: 'rounds, the variants alternating (default 6)', set: (o, v) => (o.rounds = whole(v, 1, 100)) },
  ],
});

const include = (path: string) => readFileSync(new URL(`../src/${path}.lua`, import.meta.url), 'utf8');
const SETTINGS = `${24 * 3_600_000}|${30 * 60_000}`;
const STAKE = 50;

/** The wallet step of one purchase, `read` more fields and `protect` (Lua) between the read and the write. */
function script(read: string, protect: string): string {
  return `${include('redis-scripts/lua/int')}\n${include('protection/lua/includes/protection')}
local wallet, now0 = KEYS[1], tonumber(ARGV[1])
for i = 1, ${PURCHASES} do
  local now = now0 + i
  local nowText = tostring(now)
  local w = redis.call('HMGET', wallet, 'balance', 'n:g', 'staked'${read})
  local writes = {'balance', int(tonumber(w[1]) - ${STAKE}), 'u:e.1:' .. (i % 3), nowText, 'n:g', int(tonumber(w[2] or '0') + 1), 'staked', int(tonumber(w[3] or '0') + ${STAKE})}
  ${protect}
  redis.call('HSET', wallet, unpack(writes))
end
return 1`;
}

const VARIANTS = {
  bare: script('', ''),
  allowance: script(', unpack(PURCHASE_FIELDS)', `local refused, checked = stakeRefusal(wallet, w, 3, ${STAKE}, now, nowText, '${SETTINGS}')
  if refused then error('refused') end
  countStake(wallet, checked, ${STAKE}, now, writes)`),
  // The allowance it grants is written (as past it) but never read: every purchase checks in full.
  'in full': script('', `local refused, checked = checkInFull(wallet, nil, ${STAKE}, now, '${SETTINGS}')
  if refused then error('refused') end
  countStake(wallet, checked, ${STAKE}, now, writes)`),
} as const;
type Variant = keyof typeof VARIANTS;

/**
 * The memory store's checks, `PURCHASES` purchases a second apart on one wallet (weekly and
 * daily limits set, the session open, as in play), in µs of this process's CPU per purchase;
 * `bare` runs the same loop building the same requests without the checks.
 */
function memoryChecks(checked: boolean, start: number): number {
  const protection = newProtection();
  protection.limits.stake_week = { amount: 1e12 };
  protection.limits.stake_day = { amount: 1e12 };
  const wallet: ProtectedWallet = { protection, journal: [] };
  const settings = { realityCheckMs: 24 * 3_600_000, sessionIdleMs: 30 * 60_000 };
  let refused = 0;
  const before = process.cpuUsage();
  for (let i = 0; i < PURCHASES; i++) {
    const request: PurchaseRequest = { playerId: 'p1', requestId: `r${i}`, game: 'noel', stake: STAKE, now: start + i * 1000, protection: settings };
    if (!checked) continue;
    if (stakeRefusal(wallet, request)) refused++;
    else countStake(wallet, request);
  }
  const used = process.cpuUsage(before);
  if (refused > 0) throw new Error(`${refused} purchases refused: the measure buys within its limits`);
  return (used.user + used.system) / PURCHASES;
}

const embedded: { bare: number[]; checked: number[] } = { bare: [], checked: [] };
for (let round = 1; round <= ROUNDS; round++) {
  embedded.bare.push(memoryChecks(false, Date.now()));
  embedded.checked.push(memoryChecks(true, Date.now()));
}
const embeddedResult = { bare: Math.round(median(embedded.bare) * 1000) / 1000, checked: Math.round(median(embedded.checked) * 1000) / 1000 };
console.log(`embedded   ${embeddedResult.bare.toFixed(3)} µs bare, ${embeddedResult.checked.toFixed(3)} µs with the memory store's checks, of this process's CPU per purchase (median of ${ROUNDS})`);

const server = await RedisServer.start();
const redis = new Redis(server.url);
try {
  const mainThreadCpu = async () => {
    const info = await redis.info('cpu');
    const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
    return field('used_cpu_user_main_thread') + field('used_cpu_sys_main_thread');
  };
  const names = Object.keys(VARIANTS) as Variant[];
  for (const name of names) {
    await redis.hset(`w:${name}`, { balance: '100000000000', 'n:g': '0', staked: '0', 'p:l:stake_week': '100000000000||', 'p:l:stake_day': '100000000000||' });
  }
  const micros: Record<Variant, number[]> = { bare: [], allowance: [], 'in full': [] };
  let now = Date.now();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const name of names) {
      const before = await mainThreadCpu();
      await redis.eval(VARIANTS[name], 1, `w:${name}`, String(now));
      micros[name].push(((await mainThreadCpu()) - before) * 1e6 / PURCHASES);
      now += PURCHASES;
    }
    process.stderr.write(`round ${round}/${ROUNDS}\n`);
  }
  const result = Object.fromEntries(names.map((name) => [name, Math.round(median(micros[name]) * 100) / 100]));
  for (const name of names) console.log(`${name.padEnd(10)} ${result[name]!.toFixed(2)} µs of Redis CPU per purchase (median of ${ROUNDS})`);
  console.log(JSON.stringify({ purchases: PURCHASES, rounds: ROUNDS, microsPerPurchase: result, embeddedMicrosPerPurchase: embeddedResult }));
} finally {
  redis.disconnect();
  await server.stop();
}
