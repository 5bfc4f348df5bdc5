import { strict as assert } from 'node:assert';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { RedisPresence } from '@colyseus/redis-presence';
import { Redis } from 'ioredis';
import { PRESENCE_CONNECTION, UnlimitedRedisPresence, writeOncePerTurn } from '../../src/server/redis-client';
import { RedisCluster } from '../../tools/redis-cluster';
import { RedisServer } from '../../tools/redis-server';
import { eventually } from '../rooms/helpers';

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

/**
 * A TCP relay to a Redis that can be told to drop every connection: those open at once, and
 * each new one as soon as it sends its first command, before Redis could answer it (a Redis
 * killed just as its clients reconnect after a restart).
 */
class DroppingRelay {
  private dropping = false;
  private readonly sockets = new Set<Socket>();
  /** Connections dropped after their first command. */
  dropped = 0;

  private constructor(private readonly server: Server) {}

  static async start(redisPort: number): Promise<DroppingRelay> {
    const relay: DroppingRelay = new DroppingRelay(createServer((client) => relay.accept(client, redisPort)));
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    return relay;
  }

  get url(): string {
    return `redis://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  drop(): void {
    this.dropping = true;
    for (const socket of this.sockets) socket.destroy();
  }

  forward(): void {
    this.dropping = false;
  }

  close(): void {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
  }

  private accept(client: Socket, redisPort: number): void {
    this.track(client);
    if (this.dropping) {
      client.once('data', () => {
        this.dropped++;
        client.destroy();
      });
      return;
    }
    const redis = this.track(connect(redisPort, '127.0.0.1'));
    client.on('close', () => redis.destroy());
    redis.on('close', () => client.destroy());
    client.pipe(redis);
    redis.pipe(client);
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
    return socket;
  }
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

  describe('PRESENCE_CONNECTION', () => {
    let relay: DroppingRelay;
    beforeEach(async () => {
      relay = await DroppingRelay.start(server.port);
    });
    afterEach(() => relay.close());

    it("keeps a RedisPresence's subscriber reconnecting when Redis drops its connections before answering them", async function () {
      this.timeout(40_000);
      // The server's failure policy (app.ts, connectRedis), then the presence's options.
      const connection = new Redis(relay.url, {
        commandTimeout: 1000,
        maxRetriesPerRequest: 1,
        retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
        ...PRESENCE_CONNECTION,
      });
      const presence = new RedisPresence(connection);
      try {
        const heard: string[] = [];
        await presence.subscribe('before', (message: string) => void heard.push(`before: ${message}`));

        relay.drop();
        // Both connections try again and again, each attempt dropped at its first command.
        await eventually(() => relay.dropped, (dropped) => dropped >= 8, 'eight connections dropped', 10_000);
        relay.forward();

        // Without PRESENCE_CONNECTION, each SUBSCRIBE waits in the offline queue of a subscriber
        // that stopped reconnecting, and times out.
        const hear = (message: string) => void heard.push(`after: ${message}`);
        const subscribed = () => presence.subscribe('after', hear).then(() => true, () => {
          void presence.unsubscribe('after', hear).catch(() => undefined);
          return false;
        });
        await eventually(subscribed, (done) => done, 'a subscription once Redis answers again', 10_000);
        await presence.publish('before', 'one');
        await presence.publish('after', 'two');
        await eventually(() => heard.length, (n) => n >= 2, 'both messages', 5000);
        assert.deepEqual(heard.sort(), ['after: two', 'before: one']);
      } finally {
        presence.shutdown();
      }
    });
  });

  describe('UnlimitedRedisPresence', () => {
    it('takes 50 listeners on one topic (50 joins waiting on one room) with no leak warning, and tells each', async () => {
      const warnings: string[] = [];
      const onWarning = (warning: Error) => void warnings.push(warning.name);
      process.on('warning', onWarning);
      const presence = new UnlimitedRedisPresence(new Redis(server.url));
      try {
        let heard = 0;
        await Promise.all(Array.from({ length: 50 }, () => presence.subscribe('concurrent:watch:table', () => void (heard += 1))));
        await presence.publish('concurrent:watch:table', 'room');
        await eventually(() => heard, (n) => n === 50, 'the message told to every listener', 5000);
        // Node emits its warning on the next tick after the 11th listener.
        await new Promise((resolve) => setImmediate(resolve));
        assert.deepEqual(warnings, []);
      } finally {
        process.off('warning', onWarning);
        presence.shutdown();
      }
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
