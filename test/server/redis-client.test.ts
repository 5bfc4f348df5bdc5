import { strict as assert } from 'node:assert';
import type { Socket } from 'node:net';
import { Redis } from 'ioredis';
import { writeOncePerTurn } from '../../src/server/redis-client';
import { RedisCluster } from '../../tools/redis-cluster';
import { RedisServer } from '../../tools/redis-server';

/** Counts the system-call writes of a socket (one `_write` or `_writev` each). */
function countWrites(socket: Socket): { readonly count: number } {
  const counter = { count: 0 };
  const s = socket as unknown as { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
  for (const name of ['_write', '_writev'] as const) {
    const original = s[name].bind(socket);
    s[name] = (...args: unknown[]) => {
      counter.count++;
      original(...args);
    };
  }
  return counter;
}

describe('redis client', function () {
  this.timeout(20_000);
  let server: RedisServer;
  let redis: Redis;
  before(async () => {
    server = await RedisServer.start();
  });
  after(() => server.stop());
  beforeEach(async () => {
    redis = new Redis(server.url, { lazyConnect: true });
    writeOncePerTurn(redis);
    await redis.connect();
  });
  afterEach(() => redis.disconnect());

  describe('writeOncePerTurn', () => {
    it('sends the commands of one turn of the event loop in one write, each answered on its own', async () => {
      const writes = countWrites(redis.stream as Socket);
      const answers = await Promise.all([redis.set('a', '1'), redis.incr('n'), redis.get('a'), redis.incr('n'), redis.get('missing')]);
      assert.deepEqual(answers, ['OK', 1, '1', 2, null]);
      assert.equal(writes.count, 1);
    });

    it('sends the commands of different turns in writes of their own', async () => {
      const writes = countWrites(redis.stream as Socket);
      for (let i = 0; i < 3; i++) await redis.incr('turns');
      assert.equal(await redis.get('turns'), '3');
      assert.equal(writes.count, 4);
    });

    it('keeps doing so on the connection that replaces a dropped one', async () => {
      const first = redis.stream;
      const id = await redis.client('ID');
      const admin = new Redis(server.url);
      try {
        const back = new Promise((resolve) => redis.once('ready', resolve));
        await admin.client('KILL', 'ID', String(id));
        await back;
      } finally {
        admin.disconnect();
      }
      assert.notEqual(redis.stream, first);
      const writes = countWrites(redis.stream as Socket);
      assert.deepEqual(await Promise.all([redis.incr('k'), redis.incr('k')]), [1, 2]);
      assert.equal(writes.count, 1);
    });
  });

  describe('writeOncePerTurn on a Redis Cluster', () => {
    let cluster: RedisCluster;
    before(async () => {
      cluster = await RedisCluster.start({ masters: 1 });
    });
    after(() => cluster.stop());

    it("sends the commands of one turn to a node in one write of that node's connection", async () => {
      const client = cluster.client({ lazyConnect: true });
      try {
        writeOncePerTurn(client);
        await client.connect();
        await client.set('warm', '1'); // the node's connection is open
        const [node] = client.nodes('master');
        const writes = countWrites(node!.stream as Socket);
        assert.deepEqual(await Promise.all([client.incr('c'), client.incr('c'), client.get('warm')]), [1, 2, '1']);
        assert.equal(writes.count, 1);
      } finally {
        client.disconnect();
      }
    });
  });
});
