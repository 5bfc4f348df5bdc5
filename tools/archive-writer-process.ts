import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { exited, spawnChild } from './child-processes';

/**
 * The archive writer as an operator runs it: `npm run archive -- run` (scripts/archive.ts) in a
 * child process, with the settings of `env` (REDIS_URL or REDIS_CLUSTER_NODES, REDIS_PREFIX,
 * ARCHIVE_DIR, …). It can be killed (SIGKILL, as a crash) and started again on the same
 * settings, or stopped as an operator stops it (SIGTERM: it drains what is left first). Its
 * output (stdout and stderr) is kept. It lives in tools/ because the tests and the chaos run
 * share it.
 */
export class ArchiveWriterProcess {
  private process: ChildProcess | undefined;
  /** Everything it printed, over all its starts. */
  output = '';

  private constructor(private readonly env: Readonly<Record<string, string>>) {}

  static start(env: Readonly<Record<string, string>>): ArchiveWriterProcess {
    const writer = new ArchiveWriterProcess(env);
    writer.launch();
    return writer;
  }

  get running(): boolean {
    return this.process !== undefined;
  }

  /** Kills it at once (no drain), as a crash would. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child) return;
    child.kill('SIGKILL');
    await exited(child);
  }

  /** Starts it again (killed first if it runs). */
  async restart(): Promise<void> {
    await this.kill();
    this.launch();
  }

  /** Stops it with SIGTERM (it drains first); resolves with its exit code. */
  async stop(): Promise<number | null> {
    const child = this.process;
    this.process = undefined;
    if (!child) return null;
    child.kill('SIGTERM');
    await exited(child);
    return child.exitCode;
  }

  private launch(): void {
    const script = fileURLToPath(new URL('../scripts/archive.ts', import.meta.url));
    const child = spawnChild(process.execPath, ['--import', 'tsx', script, 'run'], { env: { ...process.env, ...this.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => (this.output += chunk.toString());
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.process = child;
  }
}
