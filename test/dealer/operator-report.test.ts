import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { MemoryStore } from '../../src/dealer/memory-store';
import { blocksReport, formatBlocksReport, formatVerification, verifyBlockReport } from '../../src/dealer/operator-report';
import { RedisStore } from '../../src/dealer/redis-store';
import type { DealerStore } from '../../src/dealer/types';
import { RedisServer } from '../../tools/redis-server';
import { TEN_UNIT_TABLE } from './support/test-tables';

const T0 = 1_700_000_000_000;
const GAME = TEN_UNIT_TABLE.game;
const STAKE = TEN_UNIT_TABLE.stake;

/** An emission of 3 ten-unit blocks with the first sold out and 4 units of the second sold. */
async function dealFourteen(store: DealerStore): Promise<void> {
  await store.openEmission({ emissionId: 'noel', table: TEN_UNIT_TABLE, blockCount: 3, now: T0 });
  await store.deposit('p1', 10_000, 'd1', T0);
  for (let i = 0; i < 14; i++) {
    const result = await store.purchase({ playerId: 'p1', requestId: `r${i}`, game: GAME, stake: STAKE, now: T0 + i });
    assert.ok(result.ok);
  }
}

describe('operator report', () => {
  it('lists each block with sold and unsold units, prizes won and left per tier, commitment and state', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const report = await blocksReport(store);
    assert.equal(report.emissions.length, 1);
    const [emission] = report.emissions;
    assert.deepEqual({ ...emission!, blocks: undefined }, { emissionId: 'noel', game: GAME, stake: STAKE, state: 'selling', blockCount: 3, blocks: undefined });
    const [closed, open, printed] = emission!.blocks;
    assert.deepEqual([closed!.state, closed!.sold, closed!.unsold], ['closed', 10, 0]);
    assert.deepEqual([open!.state, open!.sold, open!.unsold], ['open', 4, 6]);
    assert.deepEqual([printed!.state, printed!.sold, printed!.unsold], ['printed', 0, 10]);
    const total = TEN_UNIT_TABLE.tiers.reduce((sum, t) => sum + t.prize * t.count, 0);
    assert.deepEqual(closed!.tiers.map((t) => [t.tierId, t.prize, t.count, t.won, t.left]), [
      [0, 0, 4, 4, 0],
      ...TEN_UNIT_TABLE.tiers.map((t, i) => [i + 1, t.prize, t.count, t.count, 0]),
    ]);
    assert.deepEqual([closed!.prizesWon, closed!.prizesLeft], [total, 0]);
    assert.equal(open!.prizesWon + open!.prizesLeft, total);
    assert.equal(open!.tiers.reduce((n, t) => n + t.won, 0), 4);
    assert.match(closed!.seed!, /^[0-9a-f]{64}$/);
    assert.equal(open!.seed, undefined);
    const text = formatBlocksReport(report);
    assert.match(text, /block noel\.0 {2}closed {2}sold 10 \/ 10 {2}unsold 0/);
    assert.match(text, /commitment [0-9a-f]{64}/);
  });

  it('verifies a closed block from its revealed seed', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const report = await verifyBlockReport(store, 'noel.0');
    assert.ok(report);
    assert.deepEqual([report.verified, report.checkedUnits, report.problems], [true, 10, []]);
    assert.match(formatVerification(report), /verified\. Re-printed from seed [0-9a-f]{64}/);
  });

  it('does not verify a block still selling, and knows no unknown block', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const open = await verifyBlockReport(store, 'noel.1');
    assert.deepEqual([open!.verified, open!.problems], [false, ['block is open: its seed is revealed only once it is sold out']]);
    assert.equal(await verifyBlockReport(store, 'noel.7'), undefined);
    assert.equal(await verifyBlockReport(store, 'nothing'), undefined);
  });

  it('finds a published page root that the revealed seed does not derive', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const tampered: DealerStore = Object.assign(Object.create(store) as DealerStore, {
      pageCommitments: async (blockId: string) => (await store.pageCommitments(blockId))!.map((p) => ({ ...p, root: 'f'.repeat(64) })),
    });
    const report = await verifyBlockReport(tampered, 'noel.0');
    assert.equal(report!.verified, false);
    assert.match(report!.problems[0]!, /^page 0: published root f{64}, the seed derives [0-9a-f]{64}$/);
  });

  it('finds a sale recorded with another tier than the block printed', async () => {
    const store = new MemoryStore();
    await dealFourteen(store);
    const tampered: DealerStore = Object.assign(Object.create(store) as DealerStore, {
      recordedTiers: async (blockId: string) => {
        const tiers = (await store.recordedTiers(blockId))!;
        tiers[3] = (tiers[3]! + 1) % 8;
        return tiers;
      },
    });
    const report = await verifyBlockReport(tampered, 'noel.0');
    assert.equal(report!.verified, false);
    assert.match(report!.problems[0]!, /^position 3: sold as tier \d, printed tier \d$/);
    assert.match(formatVerification(report!), /NOT verified\n {2}- position 3/);
  });
});

describe('npm run blocks', function () {
  this.timeout(60_000);
  const SCRIPT = fileURLToPath(new URL('../../scripts/blocks.ts', import.meta.url));
  let redisServer: RedisServer;
  let http: Server;
  let httpUrl: string;

  function blocks(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) => {
        resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
      });
    });
  }

  before(async () => {
    redisServer = await RedisServer.start();
    const redis = new Redis(redisServer.url);
    const store = new RedisStore(redis, { prefix: 'ops' });
    await dealFourteen(store);
    await redis.quit();

    // A stand-in for the server's admin routes, serving the same reports from a memory store.
    const memory = new MemoryStore();
    await dealFourteen(memory);
    http = createServer((req, res) => {
      if (req.headers.authorization !== 'Bearer s3cret') return void res.writeHead(401).end();
      const verify = /^\/admin\/blocks\/([^/]+)\/verify$/.exec(req.url ?? '');
      const report = req.url === '/admin/blocks' ? blocksReport(memory) : verify ? verifyBlockReport(memory, decodeURIComponent(verify[1]!)) : Promise.resolve(undefined);
      void report.then((body) => (body ? res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)) : res.writeHead(404).end()));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    httpUrl = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  });

  after(async () => {
    http?.close();
    await redisServer?.stop();
  });

  it('lists and verifies blocks read from Redis', async () => {
    const list = await blocks(['list', '--redis', redisServer.url, '--prefix', 'ops']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /emission noel: noel-de-la-chance at 0\.50 €, selling, 3 of 3 blocks printed/);
    const verified = await blocks(['verify', 'noel.0', '--redis', redisServer.url, '--prefix', 'ops', '--json']);
    assert.equal(verified.code, 0, verified.stderr);
    assert.equal((JSON.parse(verified.stdout) as { verified: boolean }).verified, true);
    const open = await blocks(['verify', 'noel.1', '--redis', redisServer.url, '--prefix', 'ops']);
    assert.equal(open.code, 1);
    assert.match(open.stdout, /NOT verified/);
  });

  it("lists and verifies blocks through a server's admin endpoint with the operator token", async () => {
    const list = await blocks(['list', '--url', httpUrl, '--json'], { OPERATOR_TOKEN: 's3cret' });
    assert.equal(list.code, 0, list.stderr);
    assert.equal((JSON.parse(list.stdout) as { emissions: unknown[] }).emissions.length, 1);
    const unknown = await blocks(['verify', 'noel.9', '--url', httpUrl], { OPERATOR_TOKEN: 's3cret' });
    assert.deepEqual([unknown.code, unknown.stderr.trim()], [1, 'no block noel.9']);
    const refused = await blocks(['list', '--url', httpUrl], { OPERATOR_TOKEN: 'wrong' });
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /refused the operator token/);
  });

  it('explains a bad command line and exits 2', async () => {
    for (const args of [[], ['sell'], ['verify'], ['list', '--redis', 'redis://x', '--url', 'http://x'], ['list', '--bogus']]) {
      const result = await blocks(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.stderr, /usage: npm run blocks -- <command>/);
    }
  });
});
