import { strict as assert } from 'node:assert';
import { Client } from '@colyseus/sdk';
import { Redis } from 'ioredis';
import { SignJWT } from 'jose';
import { MemoryStore } from '../../src/dealer/memory/store';
import { RedisStore } from '../../src/dealer/redis/store';
import type { DealerStore } from '../../src/dealer/types';
import type { RunningServer } from '../../src/server/app';
import { MemoryActionLog } from '../../src/action-log/action-log';
import { RedisServer } from '../../tools/redis-server';
import { startTestServer } from '../support/game-server';
import { NOT_COMMANDS } from '../support/redis-commands';

const SECRET = 'wallet-read-cost-secret-of-32-chars-or-more';
const OPERATOR = 'operator-token-for-the-wallet-cost-tests';
const T0 = 1_700_000_000_000;
const SHORT = 10;
const LONG = 5_000;
/** Lines a page of `GET /wallet` asks for here: as many as the short journal has. */
const PAGE = 10;
const START = 100_000;

/** What the store did for one read: whole-journal reads, journal lines handed out, Redis commands and reply bytes. */
interface Cost {
  wholeJournals: number;
  pageLines: number;
  commands: number;
  replyBytes: number;
}

const zero = (): Cost => ({ wholeJournals: 0, pageLines: 0, commands: 0, replyBytes: 0 });

/** The client, every command and the bytes of its reply counted into `cost.current`. */
function metered(client: Redis, cost: { current: Cost }): Redis {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string' || NOT_COMMANDS.has(prop)) return value;
      return async (...args: unknown[]) => {
        cost.current.commands++;
        const reply = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        cost.current.replyBytes += JSON.stringify(reply ?? null).length;
        return reply;
      };
    },
  });
}

/** The store, its whole-journal reads and the lines of its journal pages counted into `cost.current`. */
function observed(store: DealerStore, cost: { current: Cost }): DealerStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'journal') {
        return (...args: unknown[]) => {
          cost.current.wholeJournals++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      if (prop === 'journalPage') {
        return async (...args: unknown[]) => {
          const lines = (await (value as (...a: unknown[]) => Promise<unknown[]>).apply(target, args));
          cost.current.pageLines += lines.length;
          return lines;
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('wallet reads: the same cost at 10 and at 5,000 journal lines', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  before(async () => {
    redis = await RedisServer.start();
  });
  after(async () => {
    await redis?.stop();
  });

  for (const setup of ['memory', 'redis'] as const) {
    it(`GET /wallet, the table's wallet and the operator's wallet view (${setup})`, async () => {
      const cost = { current: zero() };
      const client = setup === 'redis' ? new Redis(redis.url, { enableAutoPipelining: true }) : undefined;
      const store = client ? new RedisStore(metered(client, cost), { prefix: 'cost' }) : new MemoryStore();
      let server: RunningServer | undefined;
      try {
        server = await startTestServer({ JWT_SECRET: SECRET, OPERATOR_TOKEN: OPERATOR }, { stores: { dealer: observed(store, cost), actions: new MemoryActionLog() } });
        const base = `http://127.0.0.1:${server.port}`;
        const costs = new Map<number, Record<string, Cost>>();
        let lines = 0;
        for (const length of [SHORT, LONG]) {
          // Fixed-width refs and balances (a first deposit of 1,000 €, then cents), so that only
          // the journal's length differs between the two.
          for (; lines < length; lines += 500) {
            const batch = Array.from({ length: Math.min(500, length - lines) }, (_, i) => lines + i);
            await Promise.all(batch.map((i) => store.wallets.deposit('acct-1', i === 0 ? START : 1, `d${String(i).padStart(6, '0')}`, T0 + i)));
          }
          lines = length;
          const playerId = 'acct-1';
          const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(playerId).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
          const table = new Client(base);
          table.auth.token = token;
          const room = await table.create('table', { game: 'rain-diamonds' });
          room.onMessage('*', () => {});
          const measured: Record<string, Cost> = {};
          const measure = async (what: string, read: () => Promise<unknown>) => {
            cost.current = zero();
            await read();
            measured[what] = cost.current;
            cost.current = zero();
          };
          await measure('GET /wallet', async () => {
            const res = await fetch(`${base}/wallet?limit=${PAGE}`, { headers: { authorization: `Bearer ${token}` } });
            assert.equal(((await res.json()) as { journal: unknown[] }).journal.length, PAGE);
          });
          await measure('wallet view', async () => {
            const res = await fetch(`${base}/admin/wallets/${playerId}`, { headers: { authorization: `Bearer ${OPERATOR}` } });
            assert.deepEqual(await res.json(), { playerId, balance: START + length - 1, held: 0 });
          });
          await measure('table wallet', async () => {
            assert.deepEqual(await room.request('wallet'), { balance: START + length - 1, held: 0 });
          });
          await room.leave();
          costs.set(length, measured);
        }
        for (const what of ['GET /wallet', 'wallet view', 'table wallet']) {
          const short = costs.get(SHORT)![what]!;
          const long = costs.get(LONG)![what]!;
          assert.equal(long.wholeJournals, 0, `${what}: never the whole journal`);
          assert.equal(long.pageLines, short.pageLines, `${what}: the same journal lines`);
          assert.equal(long.commands, short.commands, `${what}: the same Redis commands`);
          // The journal's length (LLEN) has two digits more: nothing else may grow.
          assert.ok(long.replyBytes <= short.replyBytes + 2, `${what}: ${short.replyBytes} then ${long.replyBytes} bytes read`);
        }
        if (setup === 'redis') assert.ok(costs.get(LONG)!['GET /wallet']!.commands > 0, 'the meter counts');
      } finally {
        await server?.stop();
        client?.disconnect();
      }
    });
  }
});
