/**
 * A dealer process for the races of two processes (finish-first-race.test.ts,
 * time-limit-race.test.ts): on each line `buy <round> [<now>]` from stdin it asks its RedisStore
 * for one unit for the player (request id `<name>-<round>`, finish-first asked if
 * `finishFirst`; at `now`, ms, or the process's time), and prints `sold <round> <unitId>` or
 * `refused <round> <code>`.
 *
 * Run: node --import tsx racing-buyer.ts '<json RacingBuyerArgs>'
 */
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { RedisStore } from '../../../src/dealer/redis/store';

export interface RacingBuyerArgs {
  readonly url: string;
  readonly prefix: string;
  readonly name: string;
  readonly playerId: string;
  readonly game: string;
  readonly stake: number;
  /** Asks "finish your unit first" (the unit alone in its purchase), or sells units unfinished side by side. */
  readonly finishFirst: boolean;
}

const args = JSON.parse(process.argv[2] ?? '{}') as RacingBuyerArgs;
const redis = new Redis(args.url, { enableAutoPipelining: true });
const store = new RedisStore(redis, { prefix: args.prefix });

createInterface({ input: process.stdin })
  .on('line', (line) => {
    const [, round, now] = line.split(' ');
    const requestId = `${args.name}-${round}`;
    store
      .sales.purchase({ playerId: args.playerId, requestId, game: args.game, stake: args.stake, now: now === undefined ? Date.now() : Number(now), ...(args.finishFirst && { boughtTogether: [requestId] }) })
      .then((result) => process.stdout.write(result.ok ? `sold ${round} ${result.sale.unitId}\n` : `refused ${round} ${result.code}\n`))
      .catch((err: unknown) => process.stdout.write(`failed ${round} ${String(err)}\n`));
  })
  .on('close', () => {
    void store.close().then(() => redis.quit());
  });
