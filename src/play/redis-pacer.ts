import { randomBytes } from 'node:crypto';
import type { GameId, Refusal } from '../games/types';
import { defineScripts, type RedisClient, type RunScript } from '../redis-scripts/loader';
import { longestPace, paceOf, tooFast, type PaceSettings, type Pacer, type PaceStarted } from './pacing';

const LUA = new URL('./lua/', import.meta.url);
type Script = 'startUnit' | 'releaseUnit';

/**
 * How long past the longest pace a start is kept: `now` is the store's time as this process
 * reads it (src/server/store-clock.ts), which may differ from Redis's own by a round trip.
 */
const KEEP_MARGIN_MS = 1000;

/**
 * The pace on Redis or a Redis Cluster, shared by every process: one key per player, its last
 * start (startUnit-1.lua, releaseUnit-1.lua), so that two tables of a player on two processes
 * are paced against each other. One round trip a purchase; a refused purchase one more.
 */
export class RedisPacer implements Pacer {
  private readonly run: RunScript<Script>;
  private readonly keepMs: number;

  constructor(
    redis: RedisClient,
    private readonly prefix: string,
    private readonly settings: PaceSettings,
    private readonly now: () => number,
  ) {
    this.run = defineScripts<Script>(redis, LUA, 'pace');
    this.keepMs = longestPace(settings) + KEEP_MARGIN_MS;
  }

  async start(playerId: string, game: GameId): Promise<PaceStarted | Refusal> {
    const now = this.now();
    const { unitMs } = paceOf(this.settings, game);
    const holder = randomBytes(8).toString('hex');
    const [taken, value] = (await this.run('startUnit', [this.keyOf(playerId)], [now, unitMs, holder, this.keepMs])) as [number, number | string];
    if (taken !== 1) return tooFast(unitMs, Number(value));
    const previous = String(value);
    return { ok: true, release: () => this.releaseUnit(playerId, `${now}|${holder}`, previous) };
  }

  private async releaseUnit(playerId: string, mine: string, previous: string): Promise<void> {
    const lifeLeft = previous === '' ? 0 : Number(previous.slice(0, previous.indexOf('|'))) + this.keepMs - this.now();
    await this.run('releaseUnit', [this.keyOf(playerId)], [mine, previous, lifeLeft]);
  }

  private keyOf(playerId: string): string {
    return `${this.prefix}:pace:${playerId}`;
  }
}
