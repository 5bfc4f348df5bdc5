import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../tools/redis-server';
import { waitUntilReady } from '../../tools/wait-until-ready';

/** A child that answers `status` on `port` after `afterMs`, then keeps running; or exits with `exitCode` first. */
function child(port: number, { status = 200, afterMs = 0, exitCode }: { status?: number; afterMs?: number; exitCode?: number }): ChildProcess {
  const source = exitCode !== undefined
    ? `process.exit(${exitCode})`
    : `setTimeout(() => require('node:http').createServer((q, r) => { r.statusCode = ${status}; r.end('not yet'); }).listen(${port}, '127.0.0.1'), ${afterMs})`;
  return spawn(process.execPath, ['-e', source], { stdio: 'ignore' });
}

describe('waitUntilReady', () => {
  const started: ChildProcess[] = [];
  afterEach(() => started.splice(0).forEach((c) => c.kill('SIGKILL')));

  it('resolves once the address answers 200, whatever the server printed', async () => {
    const port = await freePort();
    const c = child(port, { afterMs: 300 });
    started.push(c);
    await waitUntilReady(`http://127.0.0.1:${port}/ready`, c, 10_000);
    assert.equal(c.exitCode, null);
  });

  it('keeps waiting while the address answers anything else, and says what it answered', async () => {
    const port = await freePort();
    const c = child(port, { status: 503 });
    started.push(c);
    // Listening before the half second starts: a slow machine's spawn is not what is tested.
    for (;;) {
      if (await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await assert.rejects(waitUntilReady(`http://127.0.0.1:${port}/ready`, c, 500), /did not answer 200 in 0.5 s \(last: 503 not yet\)/);
  });

  it('fails at once when the child exits before it is ready', async () => {
    const port = await freePort();
    const c = child(port, { exitCode: 3 });
    started.push(c);
    const at = Date.now();
    await assert.rejects(waitUntilReady(`http://127.0.0.1:${port}/ready`, c, 60_000), /exited \(3\) while starting/);
    assert.ok(Date.now() - at < 30_000, 'not after the timeout');
  });

  it('fails when the child cannot be run', async () => {
    const c = spawn('/nonexistent/server', [], { stdio: 'ignore' });
    await assert.rejects(waitUntilReady('http://127.0.0.1:1/ready', c, 60_000), /cannot be run: .*ENOENT/);
  });
});
