import { RedisStore } from '../../src/dealer/redis/store';
import { RedisCluster } from '../../tools/redis-cluster';
import { pageLogConformance } from './page-log-conformance';
import { storeConformance, type StoreOptions } from './store-conformance';

/**
 * The one conformance suite on a local Redis Cluster (3 masters, 3 replicas): the per-slot
 * protocol, every write acknowledged by a replica before it is answered; with one lane per
 * game and price, and with 3 (docs/dealer.md, "Lanes").
 */
describe('on a local Redis Cluster', () => {
  let cluster: RedisCluster;
  before(async function () {
    this.timeout(60_000);
    cluster = await RedisCluster.start();
  });
  after(async () => {
    await cluster?.stop();
  });

  let prefixes = 0;

  function openStores(lanes: number) {
    return async (handles: number, options: StoreOptions = {}) => {
      const prefix = `c${++prefixes}`;
      const clients = Array.from({ length: handles }, () => cluster.client({ enableAutoPipelining: true }));
      const stores = clients.map((client) => new RedisStore(client, { prefix, protocol: 'per-slot', waitReplicas: 1, sequenceLanes: lanes, ...options }));
      return {
        stores,
        async close() {
          await Promise.all(stores.map((s) => s.close()));
          await Promise.all(clients.map((c) => c.quit()));
        },
      };
    };
  }

  storeConformance('redis cluster', openStores(1));
  storeConformance('redis cluster, 3 lanes', openStores(3), { lanes: 3 });
  pageLogConformance('redis cluster, 3 lanes', openStores(3));
});
