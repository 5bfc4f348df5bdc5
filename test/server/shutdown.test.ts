import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { Client } from '@colyseus/sdk';
import { decodedUnits, record, until } from '../support/game-server';
import { RedisServer } from '../../tools/redis-server';
import { freePort } from '../../tools/redis-server';
import { setHarnessStakeLimit } from '../../tools/stake-limit';
import { newCheckpointSigningKey } from '../../tools/checkpoint-key';


/** `npm start`'s entry point as a child process; resolves once it listens. */
async function startProcess(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', () => {
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  child.removeAllListeners('exit');
  return { child, output: () => output };
}

describe('server process', function () {
  this.timeout(90_000);
  let redis: RedisServer;

  before(async () => {
    redis = await RedisServer.start({ appendOnly: true });
  });
  after(async () => {
    await redis.stop();
  });

  it('says at start that the embedded default keeps nothing, and stops cleanly on SIGTERM', async () => {
    const { child, output } = await startProcess({ PORT: String(await freePort()), EMISSION_BLOCKS: '1' });
    assert.match(output(), /NOTHING IS KEPT/);
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
  });

  it('waits for a Redis that is down at start, and stops at once on SIGTERM meanwhile', async () => {
    const env = { PORT: String(await freePort()), REDIS_URL: `redis://127.0.0.1:${await freePort()}`, JWT_SECRET: 'shutdown-test-secret-of-32-characters!', CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey() };
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      while (!output.includes('waiting for Redis')) {
        assert.equal(child.exitCode, null, `exited instead of waiting:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      child.kill('SIGTERM');
      assert.equal(await exit, 0, output);
      assert.match(output, /stopped before it had started/);
    } finally {
      child.kill('SIGKILL'); // nothing left waiting for a Redis that never comes, whatever failed
    }
  });

  it('refuses to start on a bad setting, naming it', async () => {
    await assert.rejects(startProcess({ PORT: 'abc' }), /PORT must be a whole number/);
  });

  it('exits saying so when its port is in use, instead of waiting', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      await assert.rejects(startProcess({ PORT: String(port) }), new RegExp(`server exited \\(1\\)[\\s\\S]*cannot listen on \\S+:${port}: listen EADDRINUSE`));
    } finally {
      taken.close();
    }
  });

  it('leaves a unit resumable across SIGTERM and a new process (Redis mode)', async () => {
    const port = await freePort();
    const env = { PORT: String(port), REDIS_URL: redis.url, REDIS_PREFIX: 'shutdown', JWT_SECRET: 'shutdown-test-secret-of-32-characters!', CHECKPOINT_SIGNING_KEY: newCheckpointSigningKey(), DEV_LOGIN: 'true', EMISSION_BLOCKS: '1', PACE_UNIT_MS: '0' };
    const first = await startProcess(env);
    const login = (await (await fetch(`http://127.0.0.1:${port}/auth/dev-login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Carol"}' })).json()) as { token: string };
    await setHarnessStakeLimit(`http://127.0.0.1:${port}`, login.token);
    const client = new Client(`http://127.0.0.1:${port}`);
    client.auth.token = login.token;
    const room = await client.create('table', { game: 'mine-d-or' });
    record(room);
    // Buy until a unit has an Extra stage pending (the reveal is not over at purchase).
    let unitId: string | undefined;
    for (let i = 0; i < 60 && !unitId; i++) {
      const { unitIds } = (await room.request('buy', { stake: 100, requestId: `r${i}` })) as { unitIds: string[] };
      await until(room, () => decodedUnits(room)[0]?.unitId === unitIds[0], 'the unit');
      if (decodedUnits(room)[0]!.status === 'in_progress') unitId = unitIds[0];
    }
    assert.ok(unitId, 'a unit with an Extra stage');
    const before = decodedUnits(room);
    const exit = new Promise<number | null>((resolve) => first.child.once('exit', (code) => resolve(code)));
    first.child.kill('SIGTERM');
    assert.equal(await exit, 0);

    const second = await startProcess(env);
    try {
      const again = await client.create('table', { game: 'mine-d-or' });
      const rec = record(again);
      assert.deepEqual(((await rec.next('resumed')) as { unitIds: string[] }).unitIds, [unitId]);
      await until(again, () => decodedUnits(again).length === 1, 'the resumed unit');
      assert.deepEqual(decodedUnits(again), before);
      await again.request('act', { action: { type: 'auto' } });
      await until(again, () => decodedUnits(again)[0]!.status === 'finished', 'the unit to finish');
      await again.leave();
    } finally {
      second.child.kill('SIGTERM');
    }
  });
});
