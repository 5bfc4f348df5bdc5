import { strict as assert } from 'node:assert';
import { RedisServer } from '../tools/redis-server';
import { proveFourDealers, proveRedisCrash, type ProofRun } from '../test/dealer/support/proofs';
import { NOEL_50 } from '../test/dealer/support/test-tables';

/**
 * The proofs of issue §5 on the full block of Le Noël de la chance at 0.50 € (800,000 units):
 * `npm run test:long` (minutes; .ci/run calls it). test/dealer runs the same on 20,000 units.
 */

function report(what: string, run: ProofRun): void {
  const perSecond = Math.round(NOEL_50.blockSize / (run.dealtMs / 1000));
  console.log(`      ${what}: 800,000 units in ${(run.dealtMs / 1000).toFixed(1)} s (${perSecond} units/s), ${run.replays} replays`);
}

describe('dealing the full block of Le Noël de la chance at 0.50 € through Redis (800,000 units)', () => {
  let server: RedisServer;
  before(async () => {
    server = await RedisServer.start();
  });
  after(async () => {
    await server?.stop();
  });

  it('deals the block with 4 dealer processes at once: counts as the table, each unit once, money balanced', async () => {
    report('4 dealers, each unit bought and settled', await proveFourDealers(server, NOEL_50, false));
  });

  it('loses nothing and deals nothing twice when a dealer process is SIGKILLed and restarted', async () => {
    const run = await proveFourDealers(server, NOEL_50, true);
    report('4 dealers, one killed, each unit bought and settled', run);
    assert.ok(run.replays > 0, 'the restarted dealer retried requests whose ack was lost');
  });
});

describe('dealing the full block through a Redis SIGKILLed mid-purchases (appendfsync always)', () => {
  let server: RedisServer;
  before(async () => {
    server = await RedisServer.start({ appendOnly: true });
  });
  after(async () => {
    await server?.stop();
  });

  it('keeps every acknowledged purchase and deals on from the right position', async () => {
    report('Redis killed, units bought', await proveRedisCrash(server, NOEL_50, 1));
  });
});
