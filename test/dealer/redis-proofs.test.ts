import { strict as assert } from 'node:assert';
import { RedisServer } from '../../tools/redis-server';
import { proveFourDealers, proveRedisCrash } from './support/proofs';
import { NOEL_50, scaledTable } from './support/test-tables';

/**
 * The proofs of issue §5 on Le Noël de la chance at 0.50 € scaled down to 20,000 units (every
 * tier kept), so that they run with every `npm test`; test-long runs them on the full block.
 */
const TABLE = scaledTable(NOEL_50, 20_000);

describe('dealing Le Noël de la chance through Redis (20,000-unit block)', function () {
  this.timeout(120_000);
  let server: RedisServer;
  before(async () => {
    server = await RedisServer.start();
  });
  after(async () => {
    await server?.stop();
  });

  it('deals the block with 4 dealer processes at once: counts as the table, each unit once, money balanced', async () => {
    await proveFourDealers(server, TABLE, false);
  });

  it('loses nothing and deals nothing twice when a dealer process is SIGKILLed and restarted', async () => {
    const run = await proveFourDealers(server, TABLE, true);
    assert.ok(run.replays > 0, 'the restarted dealer retried requests whose ack was lost');
  });
});

describe('dealing through a Redis SIGKILLed mid-purchases (appendfsync always)', function () {
  this.timeout(120_000);
  let server: RedisServer;
  before(async () => {
    server = await RedisServer.start({ appendOnly: true });
  });
  after(async () => {
    await server?.stop();
  });

  it('keeps every acknowledged purchase and deals on from the right position', async () => {
    await proveRedisCrash(server, scaledTable(NOEL_50, 5_000), 4);
  });
});
