import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';

/** A command run through `runCommand` in a process of its own: its exit code and stderr. */
function run(body: string, signalAfterMs?: number): Promise<{ code: number | null; stderr: string }> {
  const source = `import { runCommand } from './loadtest/cli.ts';\nrunCommand('test run', async (bound) => { ${body} });`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (signalAfterMs !== undefined && stderr.includes('started')) setTimeout(() => child.kill('SIGTERM'), signalAfterMs);
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('how the load test and the chaos run end', function () {
  this.timeout(30_000);

  it("exits with the command's code", async () => {
    assert.equal((await run('return 3;')).code, 3);
  });

  it('exits 1 past its bound, saying so, should the run hang', async () => {
    const { code, stderr } = await run('bound(1); await new Promise(() => setInterval(() => undefined, 1000));');
    assert.equal(code, 1);
    assert.match(stderr, /the test run exceeded its bound of 1 s/);
  });

  it('exits 130 on SIGTERM, saying so', async () => {
    const { code, stderr } = await run("process.stderr.write('started\\n'); await new Promise(() => setInterval(() => undefined, 1000));", 50);
    assert.equal(code, 130);
    assert.match(stderr, /SIGTERM: stopping the test run/);
  });
});
