import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import { RedisStore, type RedisStoreOptions } from '../../src/dealer/redis/store';
import { RedisServer } from '../../tools/redis-server';
import { NOEL_50, scaledTable } from './support/test-tables';

/**
 * What player protection costs the purchase step in Redis commands (issue 28: the dealer's
 * benchmark within 5 % of its figure before protection). Each `redis.call` of a script costs
 * Redis a few µs whatever it does, so the count is the cost, measured deterministically with
 * `INFO commandstats`: in the hour of their newest stake, a player with limits set and the
 * protection checks asked makes exactly the commands a purchase made before player protection.
 */

let server: RedisServer;
let client: Redis;
before(async function () {
  this.timeout(30_000);
  server = await RedisServer.start();
  client = new Redis(server.url);
});
after(async () => {
  client?.disconnect();
  await server?.stop();
});

/** Redis's count of each command since its start, less what the scripts' callers send (scripts, INFO). */
async function commandCounts(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const match of (await client.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (!['evalsha', 'eval', 'info', 'script'].includes(match[1]!)) counts.set(match[1]!, Number(match[2]));
  }
  return counts;
}

/** The commands run by `work`, by name (only those it ran). */
async function commandsOf(work: () => Promise<void>): Promise<Record<string, number>> {
  const before = await commandCounts();
  await work();
  const after = await commandCounts();
  const ran: Record<string, number> = {};
  for (const [command, calls] of [...after].sort(([a], [b]) => a.localeCompare(b))) {
    if (calls > (before.get(command) ?? 0)) ran[command] = calls - (before.get(command) ?? 0);
  }
  return ran;
}

const T0 = 1_699_999_200_000; // on an hour: ⌊T0 / 3 600 000⌋ = T0 / 3 600 000
const HOUR = 3_600_000;
const MINUTE = 60_000;
const TABLE = scaledTable(NOEL_50, 1000); // no block closes in these tests: the batches are alike
const SETTINGS = { realityCheckMs: 24 * HOUR, sessionIdleMs: 2 * HOUR };
const PURCHASES = 20;

/**
 * A purchase's commands, one purchase a batch, as counted on the code before player protection
 * (its windows, limits, session): the wallet's HMGET and HSET and the journal's RPUSH (and on
 * the per-slot protocol the hold's and the finish's), the rest the batch's own (the block, the
 * sale, the request id, the unsettled set, the tier counts).
 */
const BEFORE_PROTECTION: Readonly<Record<NonNullable<RedisStoreOptions['protocol']>, Readonly<Record<string, number>>>> = {
  'one-script': { get: 1, getrange: 1, hincrby: 1, hmget: 5, hset: 4, pexpire: 1, rpush: 1, zadd: 1 },
  'per-slot': { get: 1, getrange: 1, hdel: 2, hget: 3, hincrby: 1, hmget: 6, hset: 7, pexpire: 2, rpush: 1, zadd: 2 },
};

/**
 * What the regulator's archive adds to a purchase (issue 30): the stake's entry, an XADD in the
 * step of its journal line: on one Redis in the archive's money stream (16 commands where there
 * were 15), on the per-slot protocol in the player's own stream, relayed with the unit's
 * settlement (docs/archive.md, "On a Redis Cluster").
 */
const ARCHIVE_ENTRY: Readonly<Record<NonNullable<RedisStoreOptions['protocol']>, Readonly<Record<string, number>>>> = {
  'one-script': { xadd: 1 },
  'per-slot': { xadd: 1 },
};

/**
 * What the per-slot protocol's relay adds to a call that journals money (archive-relay.ts): the
 * player announced in the pending index (ZADD), their stream read (XRANGE), the relay's script
 * (the shard's two marks read, an XADD per entry, the mark written and its expiry), the
 * player's stream trimmed (XTRIM).
 */
const RELAY = { hget: 2, hset: 1, pexpire: 1, xadd: 1, xrange: 1, xtrim: 1, zadd: 1 };

/** A purchase's commands now: before protection, plus the archive's. */
const PURCHASE = Object.fromEntries(
  (['one-script', 'per-slot'] as const).map((protocol) => {
    const commands: Record<string, number> = { ...BEFORE_PROTECTION[protocol] };
    for (const [command, calls] of Object.entries(ARCHIVE_ENTRY[protocol])) commands[command] = (commands[command] ?? 0) + calls;
    return [protocol, Object.fromEntries(Object.entries(commands).sort(([a], [b]) => a.localeCompare(b)))];
  }),
) as Record<NonNullable<RedisStoreOptions['protocol']>, Record<string, number>>;

/** Two counts of commands added up, by name. */
function sum(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> {
  const all: Record<string, number> = { ...a };
  for (const [command, calls] of Object.entries(b)) all[command] = (all[command] ?? 0) + calls;
  return Object.fromEntries(Object.entries(all).sort(([x], [y]) => x.localeCompare(y)));
}

/** `commands` `times` over, plus `extra`. */
function times(commands: Readonly<Record<string, number>>, count: number, extra: Record<string, number> = {}): Record<string, number> {
  return Object.fromEntries(Object.entries(commands).map(([command, calls]) => [command, calls * count + (extra[command] ?? 0)]));
}
let prefixes = 0;
let requests = 0;

for (const protocol of ['one-script', 'per-slot'] as const satisfies readonly RedisStoreOptions['protocol'][]) {
  describe(`the purchase step's Redis commands with player protection (${protocol})`, () => {
    let store: RedisStore;
    let storeClient: Redis;
    beforeEach(async () => {
      storeClient = new Redis(server.url);
      store = new RedisStore(storeClient, { prefix: `cost${++prefixes}`, protocol });
      await store.emissions.openEmission({ emissionId: 'e', table: TABLE, blockCount: 2, now: T0 });
    });
    afterEach(async () => {
      await store.close();
      storeClient.disconnect();
    });

    /** A player with a balance; with `protected`, weekly and daily stake limits too. */
    async function player(playerId: string, limited: boolean): Promise<void> {
      await store.wallets.deposit(playerId, 1_000_000, `${playerId}-d`, T0);
      if (limited) await store.protections.changeProtection(playerId, { what: 'limits', limits: { stake_week: 500_000, stake_day: 100_000 }, raiseDelayMs: 48 * HOUR }, T0);
    }

    /** The commands of PURCHASES purchases one after the other (one a batch), the i-th at `at(i)`. */
    function purchases(playerId: string, limited: boolean, at: (i: number) => number) {
      return commandsOf(async () => {
        for (let i = 0; i < PURCHASES; i++) {
          const bought = await store.sales.purchase({
            playerId,
            requestId: `r${++requests}`,
            game: TABLE.game,
            stake: TABLE.stake,
            now: at(i),
            ...(limited ? { protection: SETTINGS } : {}),
          });
          assert.ok(bought.ok, `${playerId}'s purchase ${i}: ${bought.ok ? '' : bought.code}`);
        }
      });
    }

    it('costs a player with limits and the checks, in the hour of their newest stake, the commands of a purchase before player protection', async () => {
      await player('plain', false);
      await player('limited', true);
      // The first purchase of each opens their windows (and the limited one's session): not counted.
      await purchases('plain', false, () => T0);
      await purchases('limited', true, () => T0);
      const plain = await purchases('plain', false, (i) => T0 + MINUTE + i);
      const limited = await purchases('limited', true, (i) => T0 + MINUTE + i);
      assert.deepEqual(plain, times(PURCHASE[protocol], PURCHASES), 'without limits or the checks');
      assert.deepEqual(limited, times(PURCHASE[protocol], PURCHASES), 'with limits and the checks');
      const { record } = await store.protections.protectionRecord('limited');
      assert.deepEqual(record.stakes, [{ hour: T0 / HOUR, cents: 2 * PURCHASES * TABLE.stake }], 'every stake counted in the newest bucket');
    });

    it('costs two commands more when the newest hour moves on (the checks read in full, the previous newest bucket written), and none after it in the hour', async () => {
      await player('plain', false);
      await player('limited', true);
      await purchases('plain', false, () => T0);
      await purchases('limited', true, () => T0);
      // A purchase every minute (each within the pause bound of the one before): 20 minutes from 50 past, so the hour moves on once.
      const everyMinute = (i: number) => T0 + 50 * MINUTE + i * MINUTE;
      const plain = await purchases('plain', false, everyMinute);
      const limited = await purchases('limited', true, everyMinute);
      // The first, 50 minutes after the last, and the new hour's first are checked in full; the
      // latter writes the stake and time-played windows' previous newest buckets.
      assert.deepEqual(plain, times(PURCHASE[protocol], PURCHASES, { hmget: 2, hset: 2 }), 'without limits or the checks');
      assert.deepEqual(limited, times(PURCHASE[protocol], PURCHASES, { hmget: 2, hset: 2 }), 'with limits and the checks');
    });

    it('costs one command more for a purchase over two minutes after the one before (the checks read in full), two more when the hour moves on too', async () => {
      await player('plain', false);
      await player('limited', true);
      await purchases('plain', false, () => T0);
      await purchases('limited', true, () => T0);
      // A purchase every 15 minutes: 5 hours, so the newest hour moves on 5 times.
      const every15 = (i: number) => T0 + (i + 1) * 15 * MINUTE;
      const plain = await purchases('plain', false, every15);
      const limited = await purchases('limited', true, every15);
      // Every purchase is checked in full (a pause over 2 minutes counts only 2: the allowance cannot carry it); the hour moves on 5 times, each writing the two windows' previous buckets.
      assert.deepEqual(plain, times(PURCHASE[protocol], PURCHASES, { hmget: PURCHASES, hset: 10 }), 'without limits or the checks');
      assert.deepEqual(limited, times(PURCHASE[protocol], PURCHASES, { hmget: PURCHASES, hset: 10 }), 'with limits and the checks');
      const { record } = await store.protections.protectionRecord('limited');
      assert.deepEqual(
        record.stakes,
        [PURCHASES + 3, 4, 4, 4, 4, 1].map((units, h) => ({ hour: T0 / HOUR + h, cents: units * TABLE.stake })),
        'each stake in the bucket of its hour',
      );
    });

    it('makes a deposit within a deposit limit, in the hour of the newest, with as many commands as a deposit before protection: read the wallet and the reference, journal, write both', async () => {
      await player('limited', true);
      await store.protections.changeProtection('limited', { what: 'limits', limits: { deposit_week: 5_000_000 }, raiseDelayMs: 48 * HOUR }, T0);
      const deposit = await commandsOf(async () => {
        const credited = await store.wallets.deposit('limited', 1000, 'limited-d2', T0 + MINUTE);
        assert.ok(credited.ok);
      });
      // Before: HGET balance, HEXISTS reference, RPUSH, HSET ×2; and the archive's entry (XADD), relayed on the per-slot protocol.
      const plain = { hget: 1, hmget: 1, hset: 2, rpush: 1, xadd: 1 };
      assert.deepEqual(deposit, protocol === 'one-script' ? plain : sum(plain, RELAY));
      const { record } = await store.protections.protectionRecord('limited');
      assert.deepEqual(record.deposits, [{ hour: T0 / HOUR, cents: 1_000_000 + 1000 }], 'both deposits counted in the newest bucket');
    });
  });
}

describe('a unit\'s archive entries on the per-slot protocol, in Redis commands', () => {
  let store: RedisStore;
  let storeClient: Redis;
  beforeEach(async () => {
    storeClient = new Redis(server.url);
    store = new RedisStore(storeClient, { prefix: `cost${++prefixes}`, protocol: 'per-slot' });
    await store.emissions.openEmission({ emissionId: 'e', table: TABLE, blockCount: 2, now: T0 });
    await store.wallets.deposit('p1', 1_000_000, 'p1-d', T0);
  });
  afterEach(async () => {
    await store.close();
    storeClient.disconnect();
  });

  it('relays a settled unit\'s stake and prize to the archive shard with the relay\'s commands, its prize\'s entry written with its line', async () => {
    // The first unit without a prize and the first with one, in whichever order the block deals them.
    let losing: Record<string, number> | undefined;
    let winning: Record<string, number> | undefined;
    for (let i = 0; !losing || !winning; i++) {
      const bought = await store.sales.purchase({ playerId: 'p1', requestId: `r${++requests}`, game: TABLE.game, stake: TABLE.stake, now: T0 + i });
      assert.ok(bought.ok);
      const won = bought.sale.prize > 0;
      // Units with a prize and without are settled alike but for the prize's line and entry.
      const settle = async () => void (await store.sales.settle(bought.sale.unitId, T0 + i));
      if (won && !winning) winning = await commandsOf(settle);
      else if (!won && !losing) losing = await commandsOf(settle);
      else await settle();
    }
    // The credit's (the unit out of play) and the sequence's mark, as before the archive; then
    // the relay of the stake's entry (the player was announced by the purchase).
    const settlement = { hdel: 4, hget: 3, hincrby: 2, hsetnx: 1, zrem: 1 };
    const { zadd: _announced, ...relayed } = RELAY;
    assert.deepEqual(losing, sum(settlement, relayed));
    assert.deepEqual(winning, sum(losing, { hset: 1, rpush: 1, xadd: 2 }), 'the prize credited and journaled, its entry written and relayed');
  });
});

describe("a batch of purchases' Redis commands (one-script)", () => {
  let store: RedisStore;
  let storeClient: Redis;
  beforeEach(async () => {
    storeClient = new Redis(server.url);
    store = new RedisStore(storeClient, { prefix: `cost${++prefixes}`, protocol: 'one-script' });
    await store.emissions.openEmission({ emissionId: 'e', table: TABLE, blockCount: 2, now: T0 });
  });
  afterEach(async () => {
    await store.close();
    storeClient.disconnect();
  });

  it("makes per purchase the wallet's HMGET and HSET and the journal's RPUSH, and the rest once per batch, the archive's entry of its stakes among it", async () => {
    const players = Array.from({ length: PURCHASES }, (_, i) => `batch${i}`);
    for (const playerId of players) {
      await store.wallets.deposit(playerId, 1_000_000, `${playerId}-d`, T0);
      await store.protections.changeProtection(playerId, { what: 'limits', limits: { stake_week: 500_000, stake_day: 100_000 }, raiseDelayMs: 48 * HOUR }, T0);
    }
    const buy = (playerId: string, now: number) =>
      store.sales.purchase({ playerId, requestId: `r${++requests}`, game: TABLE.game, stake: TABLE.stake, now, protection: SETTINGS });
    // Each player's first purchase opens their windows and session: not counted.
    for (const playerId of players) assert.ok((await buy(playerId, T0)).ok);
    let tiers = 0;
    const batch = await commandsOf(async () => {
      const bought = await Promise.all(players.map((playerId) => buy(playerId, T0 + MINUTE)));
      tiers = new Set(bought.map((b) => (b.ok ? b.sale.tierId : -1))).size;
      assert.ok(bought.every((b) => b.ok));
    });
    // Per purchase: the wallet's HMGET and HSET, the journal's RPUSH. Per batch: the emission's
    // pointer, state and prizes, the request ids of two windows, the printed bytes, the sales,
    // the request ids written and kept, the emission's state written, one HINCRBY per tier
    // sold, the unsettled units, and the archive's one entry.
    const n = PURCHASES;
    assert.deepEqual(batch, { get: 1, getrange: 1, hincrby: tiers, hmget: n + 4, hset: n + 3, pexpire: 1, rpush: n, xadd: 1, zadd: 1 });
  });
});
