import { strict as assert } from 'node:assert';
import { pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';
import { ProcSampler } from '../../loadtest/samplers';

/** Keeps this thread busy until the process has used `ms` more of user CPU. */
function spin(ms: number): void {
  const start = process.cpuUsage().user;
  while (process.cpuUsage().user - start < ms * 1000);
}

describe('process sampler', () => {
  it("counts the CPU of the process's main thread under main, and its libuv pool's under libuvPool", async () => {
    const sampler = new ProcSampler(process.pid);
    sampler.openWindow();
    spin(300);
    // pbkdf2 runs on libuv's pool, not on this thread.
    await Promise.all([1, 2].map(() => promisify(pbkdf2)('secret', 'salt', 300_000, 32, 'sha256')));
    sampler.closeWindow();
    const usage = sampler.usage();
    const threads = usage.threadsCpuMs;
    assert.ok((threads.main ?? 0) >= 250, `main thread ${threads.main} ms after 300 ms of spinning`);
    assert.ok((threads.libuvPool ?? 0) >= 50, `libuv pool ${threads.libuvPool} ms after two pbkdf2 of 300,000 rounds`);
    const sum = Object.values(threads).reduce((a, b) => a + b, 0);
    // Each thread's figure is rounded to a tick (10 ms) and the process's too.
    assert.ok(Math.abs(sum - usage.cpuMs) <= 10 * (Object.keys(threads).length + 1), `threads ${sum} ms, process ${usage.cpuMs} ms`);
  });
});
