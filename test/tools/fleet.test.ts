import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { eventually } from '../rooms/helpers';
import { Fleet } from '../../tools/fleet';
import { RedisServer } from '../../tools/redis-server';

/** A stand-in for the game server (it answers /ready, and /env with what it was given): fast to start. */
const SCRIPT = 'test/tools/fixtures/ready-server.mjs';

interface SeenEnv {
  readonly PORT: string;
  readonly HOST: string;
  readonly PUBLIC_ADDRESS: string;
  readonly REDIS_URL: string | null;
  readonly ROLE: string;
}

async function envOf(url: string): Promise<SeenEnv> {
  return (await (await fetch(`${url}/env`)).json()) as SeenEnv;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('fleet', function () {
  this.timeout(30_000);

  it('starts the servers on a private Redis, each on its own port with its own PUBLIC_ADDRESS', async () => {
    const lines: string[] = [];
    const output: string[] = [];
    const fleet = await Fleet.start({ processes: 3, redis: {}, env: { ROLE: 'game' }, script: SCRIPT, log: (line) => lines.push(line), onLine: (i, line) => output.push(`${i}: ${line}`) });
    try {
      assert.ok(fleet.redis instanceof RedisServer);
      const seen = await Promise.all(fleet.endpoints.map(envOf));
      assert.deepEqual(seen.map((e) => e.PUBLIC_ADDRESS), fleet.servers.map((s) => `127.0.0.1:${s.port}`));
      assert.equal(new Set(seen.map((e) => e.PORT)).size, 3);
      for (const e of seen) assert.deepEqual([e.HOST, e.REDIS_URL, e.ROLE], ['127.0.0.1', fleet.redis.url, 'game']);
      assert.deepEqual(output.sort(), fleet.servers.map((s, i) => `${i}: listening on ${s.port}`));
      assert.deepEqual(lines.slice(1).map((l) => l.replace(/\d+/g, '#')).sort(), ['server-# (pid #) on http://#.#.#.#:#', 'server-# (pid #) on http://#.#.#.#:#', 'server-# (pid #) on http://#.#.#.#:#']);
    } finally {
      await fleet.stop();
    }
  });

  it('refuses more than one server with no Redis to share', async () => {
    await assert.rejects(Fleet.start({ processes: 2, env: {}, script: SCRIPT }), /more than one needs a Redis/);
  });

  it('starts a server again on its own port', async () => {
    const fleet = await Fleet.start({ processes: 1, env: {}, script: SCRIPT });
    try {
      const [before] = fleet.servers;
      before!.process.kill('SIGKILL');
      const after = await fleet.restart(0);
      assert.notEqual(after.pid, before!.pid);
      assert.equal(after.port, before!.port);
      assert.equal((await envOf(after.url)).PORT, String(before!.port));
    } finally {
      await fleet.stop();
    }
  });

  it('stops what it started: the servers, then the private Redis and its directory', async () => {
    const fleet = await Fleet.start({ processes: 2, redis: {}, env: {}, script: SCRIPT });
    const pids = fleet.servers.map((s) => s.pid);
    const redis = fleet.redis as RedisServer;
    await fleet.stop();
    assert.deepEqual(pids.filter(running), []);
    assert.equal(redis.running, false);
    assert.equal(existsSync(redis.dir), false);
  });

  it('leaves no server behind when the harness exits without stopping it', async () => {
    const source = `import { Fleet } from './tools/fleet.ts';
const fleet = await Fleet.start({ processes: 1, env: {}, script: '${SCRIPT}' });
console.log(fleet.servers[0].pid);
process.exit(1);`;
    const harness = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    harness.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => harness.once('exit', resolve));
    const pid = Number(out.trim());
    assert.ok(pid > 0, out);
    await eventually(() => running(pid), (alive) => !alive, `server ${pid} to be gone`);
  });
});
