import { parentPort, workerData } from 'node:worker_threads';
import { Deadline } from './collect';
import { drive } from './drive';
import type { ToWorker, WorkerSetup, FromWorker } from './workers';

/**
 * A worker thread of the load generator (`--workers N`): drives its share of the players and
 * spectators (drive.ts) on the coordinating thread's clock, sends back its measurements, then
 * collects its players' books when asked. Started by workers.ts.
 */

const port = parentPort!;
const setup = workerData as WorkerSetup;
const post = (message: FromWorker) => port.postMessage(message);

const pending = new Map<ToWorker['type'], (message: ToWorker) => void>();
const queued: ToWorker[] = [];
port.on('message', (message: ToWorker) => {
  const waiting = pending.get(message.type);
  if (waiting) {
    pending.delete(message.type);
    waiting(message);
  } else {
    queued.push(message);
  }
});

/** The coordinator's next message of this type. */
function next<T extends ToWorker['type']>(type: T): Promise<Extract<ToWorker, { type: T }>> {
  const i = queued.findIndex((m) => m.type === type);
  if (i >= 0) return Promise.resolve(queued.splice(i, 1)[0] as Extract<ToWorker, { type: T }>);
  return new Promise((resolve) => pending.set(type, resolve as (message: ToWorker) => void));
}

async function main(): Promise<void> {
  const phase = await drive({
    ...setup,
    samplers: [],
    log: (line) => post({ type: 'log', line }),
    progress: (figures) => post({ type: 'progress', figures }),
    clock: {
      ramped: async () => {
        post({ type: 'ramped' });
        await next('start');
      },
      windowOpens: async () => {
        await next('open');
      },
      windowCloses: async () => {
        await next('close');
      },
    },
  });
  post({
    type: 'drained',
    summary: {
      stats: phase.stats.snapshot(),
      unitsBought: phase.unitsBought,
      playersConnected: phase.playersConnected,
      feedSpectators: phase.feedSpectators,
      tableWatchers: phase.tableWatchers,
      watchedTables: phase.watchedTables,
      listedTables: phase.listedTables,
      spectatorsConnected: phase.spectatorsConnected,
      undrained: phase.undrained,
      bytes: phase.bytes,
    },
  });
  for (;;) {
    const message = await Promise.race([next('collect'), next('leave')]);
    if (message.type === 'leave') break;
    try {
      const collected = await phase.collect(message.endpoints, new Deadline(performance.now() + message.remainingMs), message.timeoutMs);
      post({ type: 'collected', collected });
    } catch (err) {
      post({ type: 'failed', message: (err as Error).message });
    }
  }
  await phase.close();
  post({ type: 'left' });
}

main().catch((err: unknown) => post({ type: 'failed', message: (err as Error)?.stack ?? String(err) }));
