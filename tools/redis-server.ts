import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited, spawnChild } from './child-processes';

/**
 * A private `redis-server` for a test or a benchmark: a free port, a temporary directory, and
 * optionally append-only persistence with `appendfsync always`. It can be SIGKILLed and
 * restarted on the same directory and port (to prove what survives a crash), then removed.
 * It lives in tools/ because tests, scripts and the load test share it, and src/ holds only
 * what the server runs.
 */

export interface RedisServerOptions {
  /** appendonly yes + appendfsync always: every acknowledged write is on disk. */
  readonly appendOnly?: boolean;
  /** More `redis-server` arguments (a cluster node's, say: tools/redis-cluster.ts). */
  readonly args?: readonly string[];
  /** The port to listen on. Default: a free one. */
  readonly port?: number;
  /**
   * A command that runs `redis-server` in its process (it must exec it: the server's pid is
   * the wrapper's), with its arguments: `['valgrind', '--tool=callgrind', …]` counts the
   * server's instructions (`npm run bench:dealer -- --instructions`).
   */
  readonly wrapper?: readonly string[];
}

const REDIS_SERVER = process.env['REDIS_SERVER'] ?? 'redis-server';
const START_TIMEOUT_MS = 20_000;

/** The processes `pid` forked that still run (Linux: /proc/<pid>/task/<tid>/children); none elsewhere. */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** A TCP port free on loopback right now (for test servers and benchmarks). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export class RedisServer {
  private process: ChildProcess | undefined;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly options: RedisServerOptions,
  ) {}

  static async start(options: RedisServerOptions = {}): Promise<RedisServer> {
    const dir = mkdtempSync(join(tmpdir(), 'dealer-redis-'));
    const server = new RedisServer(options.port ?? (await freePort()), dir, options);
    try {
      await server.launch();
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    return server;
  }

  /** Started and not killed since. */
  get running(): boolean {
    return this.process !== undefined;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Its process id while it runs (what a sampler of /proc needs). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** Kills the server at once (no shutdown, no final fsync), as a crash would. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  }

  /** Stops the server where it stands (SIGSTOP): it holds its connections and answers nothing. */
  freeze(): boolean {
    return this.process?.kill('SIGSTOP') ?? false;
  }

  /** Lets a frozen server go on (SIGCONT). */
  thaw(): void {
    this.process?.kill('SIGCONT');
  }

  /** Starts it again on the same directory and port; resolves once it accepts connections. */
  async restart(): Promise<void> {
    await this.kill();
    await this.launch();
  }

  /**
   * Kills the server and its forks, then removes its directory. A fork (an AOF rewrite, started
   * when a test turns `appendonly` on) outlives its killed parent and goes on writing in the
   * directory: left alone, it made the removal fail (ENOTEMPTY) on a busy machine.
   */
  async stop(): Promise<void> {
    const forks = this.process?.pid === undefined ? [] : childPids(this.process.pid);
    await this.kill();
    for (const pid of forks) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }

  private launch(): Promise<void> {
    const args = [
      '--port', String(this.port),
      '--bind', '127.0.0.1',
      '--dir', this.dir,
      '--save', '',
      '--logfile', '',
      ...(this.options.appendOnly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
      ...(this.options.args ?? []),
    ];
    const [command, ...wrapperArgs] = [...(this.options.wrapper ?? []), REDIS_SERVER];
    const child = spawnChild(command!, [...wrapperArgs, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.process = child;
    return new Promise((resolve, reject) => {
      let log = '';
      const timer = setTimeout(() => fail(new Error(`redis-server did not start in ${START_TIMEOUT_MS} ms:\n${log}`)), START_TIMEOUT_MS);
      const fail = (err: Error) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(err);
      };
      child.once('error', (err) => fail(new Error(`cannot run ${command}: ${err.message}`)));
      child.once('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${log}`)));
      child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
      child.stdout!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Ready to accept connections')) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          child.once('exit', (code, signal) => {
            // Killed by kill() or restart() is expected; anything else would otherwise be a hang.
            if (this.process === child) process.stderr.write(`redis-server on port ${this.port} exited (${signal ?? code})\n`);
          });
          child.stdout!.removeAllListeners('data');
          child.stderr!.removeAllListeners('data');
          child.stdout!.resume();
          child.stderr!.resume();
          resolve();
        }
      });
    });
  }
}
