import type { ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exited, spawnChild } from './child-processes';
import { waitUntilReady } from './wait-until-ready';

/**
 * A server run as a child process (`node <script>`, through tsx for TypeScript) on a loopback
 * port, ready once its readiness path answers 200: the game server, the load test's echo
 * server. Its recent output is kept for error reports; stopping it is graceful (SIGTERM), then
 * forced.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;
/** Output kept: the last 10 to 20 kB. */
const TAIL_CHARS = 10_000;

export interface ChildServerOptions {
  readonly name: string;
  /** An entry point relative to the project root: JavaScript, or TypeScript run through tsx. */
  readonly script: string;
  readonly port: number;
  /** Its environment beside this process's (PORT and HOST are set here). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The interface it listens on (HOST). Default 127.0.0.1. */
  readonly host?: string;
  /** Extra Node options (e.g. --inspect). */
  readonly nodeArgs?: readonly string[];
  /** A command that starts Node for it (`taskset -c 0`, `nice -n 19`); none: Node itself. */
  readonly launcher?: readonly string[];
  /** The path that answers 200 once the server takes players: `/ready` (the game server's) unless given. */
  readonly readyPath?: string;
  /** Each line it writes (stdout and stderr), as it comes. */
  readonly onLine?: (line: string) => void;
}

export class ChildServer {
  private tail = '';
  /** How it ended, once it has (a crash, a kill). */
  exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  private constructor(
    readonly name: string,
    readonly port: number,
    readonly process: ChildProcess,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.process.pid!;
  }

  /** Still running (not exited, not killed). */
  get alive(): boolean {
    return this.exited === undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Recent output, for error reports. */
  get output(): string {
    return this.tail;
  }

  static async start(options: ChildServerOptions): Promise<ChildServer> {
    const tsx = options.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
    const [command, ...args] = [...(options.launcher ?? []), process.execPath, ...(options.nodeArgs ?? []), ...tsx, options.script];
    const child = spawnChild(command!, args, {
      cwd: ROOT,
      env: { ...process.env, ...options.env, PORT: String(options.port), HOST: options.host ?? '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ChildServer(options.name, options.port, child);
    server.read(options.onLine);
    child.once('exit', (code, signal) => (server.exited = { code, signal }));
    try {
      await waitUntilReady(`${server.url}${options.readyPath ?? '/ready'}`, child, START_TIMEOUT_MS);
    } catch (err) {
      child.kill('SIGKILL');
      throw new Error(`${options.name}: ${(err as Error).message}:\n${server.tail}`);
    }
    return server;
  }

  /** Keeps the tail of its output, and hands each line to `onLine`. */
  private read(onLine: ((line: string) => void) | undefined): void {
    const keep = (text: string) => {
      this.tail += text;
      if (this.tail.length > 2 * TAIL_CHARS) this.tail = this.tail.slice(-TAIL_CHARS);
    };
    for (const stream of [this.process.stdout!, this.process.stderr!]) {
      let partial = '';
      stream.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        keep(text);
        if (!onLine) return;
        const lines = (partial + text).split('\n');
        partial = lines.pop()!;
        for (const line of lines) onLine(line);
      });
    }
    // Kept for the child's whole life: an 'error' nobody listens to would end the harness.
    this.process.on('error', (err) => keep(`\n${this.name}: ${err.message}\n`));
  }

  /** SIGTERM (the server finishes what is in flight, writes its CPU profile), SIGKILL after 15 s. */
  async stop(): Promise<void> {
    const child = this.process;
    if (!this.alive) return;
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.kill('SIGTERM');
    await exited(child);
    clearTimeout(timer);
  }
}
