import { strict as assert } from 'node:assert';
import { RedisCluster } from '../tools/redis-cluster';
import { proveFourDealers, type ProofRun } from '../test/dealer/support/proofs';
import { NOEL_50, scaledTable } from '../test/dealer/support/test-tables';

/**
 * The four-dealer proof on a local Redis Cluster (3 masters + 3 replicas): the per-slot
 * protocol, every purchase and settlement acknowledged by a replica (WAIT 1). On Le Noël de la
 * chance at 0.50 € scaled to 100,000 units (every tier kept), not the full 800,000: the per-slot
 * protocol deals about a third as fast as the one-script one on this machine (docs/dealer.md),
 * and the full block would add over 10 minutes to `npm run test:long`.
 */
const UNITS = 100_000;
const TABLE = scaledTable(NOEL_50, UNITS);
/** With lanes: 3 blocks of 15,000 units over 3 lanes (docs/dealer.md, "Lanes"), within the time of the one-lane run's half. */
const LANE_UNITS = 15_000;
const LANE_TABLE = scaledTable(NOEL_50, LANE_UNITS);

function report(what: string, run: ProofRun, units = UNITS): void {
  const perSecond = Math.round(units / (run.dealtMs / 1000));
  console.log(`      ${what}: ${units.toLocaleString('en')} units in ${(run.dealtMs / 1000).toFixed(1)} s (${perSecond} units/s), ${run.replays} replays`);
}

describe(`dealing a block of Le Noël de la chance through a Redis Cluster (${UNITS.toLocaleString('en')} units)`, () => {
  let cluster: RedisCluster;
  before(async () => {
    cluster = await RedisCluster.start();
  });
  after(async () => {
    await cluster?.stop();
  });

  it('deals the block with 4 dealer processes, one SIGKILLed and restarted: counts as the table, each unit once, money balanced', async () => {
    const run = await proveFourDealers({ clusterNodes: cluster.nodes }, TABLE, true);
    report('cluster, 4 dealers, one killed, each unit bought and settled', run);
    assert.ok(run.replays > 0, 'the restarted dealer retried requests whose ack was lost');
  });

  it('deals 3 blocks over 3 lanes with 4 dealer processes, one SIGKILLed and restarted: every block exact, each unit once, money balanced', async () => {
    const run = await proveFourDealers({ clusterNodes: cluster.nodes, lanes: 3 }, LANE_TABLE, true, 3);
    report('cluster, 3 lanes, 4 dealers, one killed, each unit bought and settled', run, 3 * LANE_UNITS);
    assert.ok(run.replays > 0, 'the restarted dealer retried requests whose ack was lost');
  });
});
