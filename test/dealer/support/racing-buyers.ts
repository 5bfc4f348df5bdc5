import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { RacingBuyerArgs } from './racing-buyer';

const BUYER = fileURLToPath(new URL('./racing-buyer.ts', import.meta.url));

/** A racing buyer process (racing-buyer.ts) and the lines it answers, one per round. */
export function startBuyer(args: RacingBuyerArgs): { child: ChildProcess; answer(round: number): Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', BUYER, JSON.stringify(args)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = new Map<number, (line: string) => void>();
  const early = new Map<number, string>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const round = Number(line.split(' ')[1]);
    const waiting = answers.get(round);
    if (waiting) waiting(line);
    else early.set(round, line);
  });
  return {
    child,
    answer: (round) =>
      new Promise((resolve) => {
        const line = early.get(round);
        if (line !== undefined) resolve(line);
        else answers.set(round, resolve);
      }),
  };
}
