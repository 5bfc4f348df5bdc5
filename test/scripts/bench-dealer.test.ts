import { strict as assert } from 'node:assert';
import { Redis } from 'ioredis';
import { RedisStore } from '../../src/dealer/redis/store';
import { readScripts } from '../../src/redis-scripts/loader';
import {
  callgrindTotal,
  INSTRUCTIONS_LIMIT,
  INSTRUCTIONS_TARGET,
  purchaseWithoutTheLaw,
  verdict,
  withoutTheLaw,
  type LawlessPart,
} from '../../tools/dealer-bench';
import { RedisServer } from '../../tools/redis-server';
import { NOEL_50 } from '../dealer/support/test-tables';

const PURCHASE_LUA = readScripts(new URL('../../src/dealer/lua/', import.meta.url)).get('purchaseUnits')!.lua;

describe("the dealer benchmark's verdict", () => {
  it('holds a purchase to 173,500 Redis instructions with 1 % of tolerance', () => {
    assert.equal(INSTRUCTIONS_TARGET, 173_500);
    assert.equal(INSTRUCTIONS_LIMIT, 175_235);
  });

  it('passes a count at the target and up to the tolerance', () => {
    for (const count of [160_000, INSTRUCTIONS_TARGET, INSTRUCTIONS_LIMIT]) {
      const judged = verdict(count, 24.8);
      assert.equal(judged.outcome, 'pass', String(count));
      assert.match(judged.sentence, /^PASS: /);
    }
  });

  it('fails a count past the tolerance, saying by how much and at what batching', () => {
    const judged = verdict(INSTRUCTIONS_LIMIT + 1, 21.3);
    assert.equal(judged.outcome, 'fail');
    assert.match(judged.sentence, /^FAIL: 175,236 Redis instructions a purchase, 1\.0 % above the target of 173,500 \+ 1 % \(at most 175,235\)/);
    assert.match(judged.sentence, /21\.3 purchases a script call/);
  });

  it('gives no verdict on a setup other than the target, whatever the count', () => {
    const judged = verdict(300_000, 1, ['--in-flight 1']);
    assert.equal(judged.outcome, 'none');
    assert.match(judged.sentence, /^no verdict: .* changed --in-flight 1$/);
  });
});

describe("callgrind's totals", () => {
  it('reads the instructions of the summary or the totals line', () => {
    assert.equal(callgrindTotal('# callgrind format\nevents: Ir\nsummary: 866432121\nfn=(1) main\n'), 866_432_121);
    assert.equal(callgrindTotal('events: Ir\nfn=(1) main\n16 3\ntotals: 42\n'), 42);
  });

  it('refuses an output with neither', () => {
    assert.throws(() => callgrindTotal('events: Ir\nfn=(1) main\n16 3\n'), /no summary or totals line/);
  });
});

describe('the purchase script without the law', () => {
  it("loses protection's checks and keeps the archive's line, or loses both", () => {
    const withoutProtection = withoutTheLaw(PURCHASE_LUA, 'protection');
    assert.doesNotMatch(withoutProtection, /^\s*local refused, checked = stakeRefusal\(/m);
    assert.doesNotMatch(withoutProtection, /^\s*countStake\(/m);
    assert.doesNotMatch(withoutProtection, /unpack\(PURCHASE_FIELDS\)/);
    assert.match(withoutProtection, /^\s*archiveLine\(/m);
    const withoutLaw = withoutTheLaw(PURCHASE_LUA, 'law');
    assert.doesNotMatch(withoutLaw, /^\s*archiveLine\(/m);
    assert.doesNotMatch(withoutLaw, /^\s*archiveEntries\(/m);
  });

  it('refuses a script whose lines it does not find once', () => {
    assert.throws(() => withoutTheLaw(PURCHASE_LUA.replace(/^\s*countStake\(.*\n/m, ''), 'protection'), /0 places matching/);
    assert.throws(() => withoutTheLaw(`${PURCHASE_LUA}\narchiveLine(archived, playerId, line, ARGV[2])\n`, 'law'), /2 places matching/);
  });

  describe('sold through a RedisStore', () => {
    let server: RedisServer;
    const clients: Redis[] = [];
    before(async function () {
      this.timeout(30_000);
      server = await RedisServer.start();
    });
    after(async () => {
      clients.forEach((c) => c.disconnect());
      await server?.stop();
    });

    /** A purchase by a player with limits set, the checks asked: the allowance it left, and its archive entries. */
    async function sell(prefix: string, part?: LawlessPart): Promise<{ allowance: string | null; archived: number }> {
      const client = new Redis(server.url);
      clients.push(client);
      const store = new RedisStore(client, { prefix });
      if (part) purchaseWithoutTheLaw(client, PURCHASE_LUA, part);
      const now = Date.now();
      await store.emissions.openEmission({ emissionId: 'e', table: NOEL_50, blockCount: 2, now });
      await store.wallets.deposit('p', 10_000, 'd', now);
      await store.protections.changeProtection('p', { what: 'limits', limits: { stake_week: 10_000, stake_day: 10_000 }, raiseDelayMs: 3_600_000 }, now);
      const archive = store.keys.outbox('money');
      const before = await client.xlen(archive);
      const sold = await store.sales.purchase({ playerId: 'p', requestId: 'r', game: NOEL_50.game, stake: NOEL_50.stake, now, protection: { realityCheckMs: 3_600_000, sessionIdleMs: 60_000 } });
      assert.ok(sold.ok, JSON.stringify(sold));
      await store.close();
      return { allowance: await client.hget(store.keys.player('p').wallet, 'p:ok'), archived: (await client.xlen(archive)) - before };
    }

    it("sells, without the allowance protection's checks grant, and without the archive's entry when without the law", async () => {
      const lawful = await sell('lawful');
      assert.notEqual(lawful.allowance, null);
      assert.equal(lawful.archived, 1);
      assert.deepEqual(await sell('no-protection', 'protection'), { allowance: null, archived: 1 });
      assert.deepEqual(await sell('no-law', 'law'), { allowance: null, archived: 0 });
    });
  });
});
