import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ScriptRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `scripts/<name>.ts` in a child process as `npm run <name>` does (through tsx). */
export function runScript(name: string, args: readonly string[], env: Record<string, string> = {}): Promise<ScriptRun> {
  const script = fileURLToPath(new URL(`../../scripts/${name}.ts`, import.meta.url));
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...process.env, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}
