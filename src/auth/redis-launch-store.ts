import type { RedisClient } from '../redis-scripts/loader';
import type { LaunchStore } from './launch-store';

/**
 * The launch store on Redis (or a Redis Cluster: one key per command): `SET NX PX` for the
 * signatures seen, `SET PX` and `GETDEL` for values kept and taken once, and the sessions' end per player.
 * Keys: `<prefix>:launch:seen:<key>`, `<prefix>:launch:once:<key>`, `<prefix>:launch:ended:<player>`.
 */
export class RedisLaunchStore implements LaunchStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  async firstSight(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}:launch:seen:${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
  }

  async put(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(`${this.prefix}:launch:once:${key}`, value, 'PX', ttlMs);
  }

  async take(key: string): Promise<string | undefined> {
    return (await this.redis.getdel(`${this.prefix}:launch:once:${key}`)) ?? undefined;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(`${this.prefix}:launch:once:${key}`)) ?? undefined;
  }

  async endSessions(playerId: string, at: number, keepMs: number): Promise<void> {
    // The last end written stands: two ends at once are the same instant to the player.
    await this.redis.set(`${this.prefix}:launch:ended:${playerId}`, String(at), 'PX', keepMs);
  }

  async sessionsEndedAt(playerId: string): Promise<number | undefined> {
    const at = await this.redis.get(`${this.prefix}:launch:ended:${playerId}`);
    return at === null ? undefined : Number(at);
  }
}
