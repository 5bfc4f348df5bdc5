import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { childPids, RedisServer } from '../../tools/redis-server';

/** Running, not gone and not a zombie (a killed orphan waits for init to reap it). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('redis-server for tests (tools/redis-server.ts)', function () {
  this.timeout(60_000);

  it('runs the server inside its wrapper, in the wrapper\'s process', async () => {
    const redis = await RedisServer.start({ wrapper: ['nice', '-n', '7'] });
    try {
      const client = new Redis(redis.url);
      const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))![1]);
      client.disconnect();
      assert.equal(pid, redis.pid, 'the wrapper exec\'d the server');
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 19 of /proc/<pid>/stat, the 17th after the command's closing parenthesis.
      assert.equal(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16], '7', 'the server runs niced by its wrapper');
    } finally {
      await redis.stop();
    }
  });

  it('stops with the AOF rewrite it forked still running: the fork is killed and the directory removed', async () => {
    const redis = await RedisServer.start();
    const client = new Redis(redis.url);
    try {
      // Enough data for the rewrite to take a while: it is still writing when the server stops.
      const value = 'x'.repeat(200);
      for (let batch = 0; batch < 10; batch++) {
        const pipeline = client.pipeline();
        for (let i = 0; i < 20_000; i++) pipeline.set(`k${batch}:${i}`, value);
        await pipeline.exec();
      }
      await client.config('SET', 'appendonly', 'yes');
      const info = await client.info('persistence');
      assert.match(info, /aof_rewrite_in_progress:1/, 'the rewrite runs');
      const pid = Number(/process_id:(\d+)/.exec(await client.info('server'))![1]);
      const forks = childPids(pid);
      assert.ok(forks.length > 0, 'the rewrite is a fork');
      client.disconnect();
      await redis.stop();
      assert.ok(!existsSync(redis.dir), 'the directory is gone');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(forks.every((fork) => !running(fork)), 'no fork left writing');
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });
});
