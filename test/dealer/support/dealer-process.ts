/**
 * One dealer as a separate process, for the proofs: buys units through a RedisStore with many
 * purchases in flight until the game closes, settles each, and prints `ack <k> <unitId> <0|1>`
 * (1: replayed) once both are done. Acks are written in batches, so a SIGKILL loses the last
 * ones, as a crash loses answers in flight; the restarted dealer starts again at the first
 * request it has no ack for, with the same request ids.
 *
 * Run: node --import tsx dealer-process.ts '<json DealerProcessArgs>'
 */
import { pathToFileURL } from 'node:url';
import { Cluster, Redis } from 'ioredis';
import { RedisStore, type RedisStoreOptions } from '../../../src/dealer/redis/store';
import type { RedisClient } from '../../../src/redis-scripts/loader';

/**
 * Where a proof deals: one Redis (its URL; a RedisServer is one), or a Redis Cluster
 * (`host:port,…`), where the store takes the per-slot protocol, waits for a replica, and opens
 * emissions over `lanes` lanes (default 1).
 */
export type ProofTarget = { readonly url: string } | { readonly clusterNodes: string; readonly lanes?: number };

/** A connection to the target, and the store options that go with it. */
export function connectProof(target: ProofTarget): { redis: RedisClient; options: RedisStoreOptions } {
  if ('url' in target) return { redis: new Redis(target.url, { enableAutoPipelining: true }), options: {} };
  const nodes = target.clusterNodes.split(',').map((node) => ({ host: node.split(':')[0]!, port: Number(node.split(':')[1]) }));
  return { redis: new Cluster(nodes, { enableAutoPipelining: true }), options: { protocol: 'per-slot', waitReplicas: 1, sequenceLanes: target.lanes ?? 1 } };
}

export interface DealerProcessArgs {
  readonly target: ProofTarget;
  readonly prefix: string;
  readonly game: string;
  readonly stake: number;
  /** Names this dealer's requests (`w<worker>-<k>`) and players (`w<worker>-p<k % players>`). */
  readonly worker: number;
  /** The first request number to send. */
  readonly from: number;
  readonly players: number;
  readonly inFlight: number;
}

const FLUSH_EVERY_MS = 50;
const RETRY_AFTER_MS = 50;

export function playerOf(worker: number, k: number, players: number): string {
  return `w${worker}-p${k % players}`;
}

export function requestOf(worker: number, k: number): string {
  return `w${worker}-${k}`;
}

async function main(args: DealerProcessArgs): Promise<void> {
  const { redis, options } = connectProof(args.target);
  const store = new RedisStore(redis, { prefix: args.prefix, ...options });
  let out = '';
  const flush = () => {
    if (out) process.stdout.write(out);
    out = '';
  };
  const flusher = setInterval(flush, FLUSH_EVERY_MS);
  let next = args.from;
  let closed = false;

  async function deal(): Promise<void> {
    while (!closed) {
      const k = next++;
      for (;;) {
        try {
          const result = await store.sales.purchase({
            playerId: playerOf(args.worker, k, args.players),
            requestId: requestOf(args.worker, k),
            game: args.game,
            stake: args.stake,
            now: Date.now(),
          });
          if (!result.ok) {
            if (result.code !== 'purchase/game_closed') throw new Error(`refused: ${result.code} ${result.message}`);
            closed = true;
            break;
          }
          const settled = await store.sales.settle(result.sale.unitId, Date.now());
          if (!settled.ok) throw new Error(`settle ${result.sale.unitId}: ${settled.code}`);
          out += `ack ${k} ${result.sale.unitId} ${result.repeated ? 1 : 0}\n`;
          break;
        } catch (err) {
          if (err instanceof Error && err.message.startsWith('refused')) throw err;
          // Redis unreachable for a moment: retry the same request id, as a client would.
          await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
        }
      }
    }
  }

  await Promise.all(Array.from({ length: args.inFlight }, deal));
  clearInterval(flusher);
  flush();
  process.stdout.write('done\n');
  await store.close();
  await redis.quit();
}

// Runs only as a process of its own; the proofs import the names above.
const script = process.argv[1];
if (script && import.meta.url === pathToFileURL(script).href) {
  main(JSON.parse(process.argv[2] ?? '{}') as DealerProcessArgs).catch((err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  });
}
