import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@colyseus/sdk';
import { freePort } from '../../tools/redis-server';
import { decodedUnits, record, until } from '../support/game-server';
import { setHarnessStakeLimit } from '../../tools/stake-limit';

const ROOT = join(import.meta.dirname, '..', '..');

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  assert.equal(result.status, 0, `${command} ${args.join(' ')}:\n${result.stdout}\n${result.stderr}`);
}

/** Starts `node <script>` and resolves once it listens (its log says so). */
function startBuilt(cwd: string, env: Record<string, string>, script = 'dist/main.js'): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [script], { cwd, env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    // Generous: `npm start` may rebuild dist/ and the page first, slowly on a loaded machine.
    const timer = setTimeout(() => reject(new Error(`the built server did not start:\n${output}`)), 150_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening')) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the built server exited (${code}):\n${output}`));
    });
  });
}

describe('production build', function () {
  this.timeout(180_000);
  let dir: string;
  let server: ChildProcess | undefined;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'production-build-'));
  });
  after(() => {
    server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs from dist/ alone after a production-only install, the page and schema patches included, and stops on SIGTERM', async () => {
    run(process.execPath, ['scripts/build.mjs'], ROOT);
    for (const file of ['dist', 'package.json', 'package-lock.json']) cpSync(join(ROOT, file), join(dir, file), { recursive: true });
    // What an operator runs: no dev dependencies (no tsx, no esbuild, no TypeScript).
    run('npm', ['ci', '--omit=dev', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
    assert.equal(spawnSync(process.execPath, ['-e', 'import("tsx")'], { cwd: dir }).status, 1, 'tsx is not installed');

    const port = await freePort();
    const started = await startBuilt(dir, { PORT: String(port), EMISSION_BLOCKS: '1' });
    server = started.child;
    const login = await fetch(`http://127.0.0.1:${port}/auth/dev-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Alice' }),
    });
    assert.equal(login.status, 200);
    // The page came with dist/: nothing else of the repository was shipped.
    const page = await fetch(`http://127.0.0.1:${port}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<div id="app">/);
    const client = new Client(`http://127.0.0.1:${port}`);
    client.auth.token = ((await login.json()) as { token: string }).token;
    await setHarnessStakeLimit(`http://127.0.0.1:${port}`, client.auth.token);
    const room = await client.create('table', { game: 'rain-diamonds' });
    record(room);
    await room.request('buy', { stake: 50, requestId: 'built_1' });
    // The unit reaches the client through a schema patch: the decorators survived the bundle.
    await until(room, () => decodedUnits(room)[0]?.steps.length === 1, 'the bought unit in the state');
    assert.equal(decodedUnits(room)[0]!.status, 'in_progress');
    await room.leave();

    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    assert.equal(await exited, 0, started.output());
    server = undefined;
  });

  it('npm start builds dist/ again when it is older than the sources, then runs it', async () => {
    run(process.execPath, ['scripts/build.mjs'], ROOT);
    const built = join(ROOT, 'dist', 'BUILT');
    const old = new Date(Date.now() - 3600_000);
    utimesSync(built, old, old);
    const started = await startBuilt(ROOT, { PORT: String(await freePort()), EMISSION_BLOCKS: '1' }, 'scripts/start.mjs');
    server = started.child;
    assert.ok(statSync(built).mtimeMs > old.getTime() + 1000, 'dist/ was rebuilt');
    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    assert.equal(await exited, 0, started.output());
    server = undefined;
  });
});
