import { idAfter } from '../outbox';
import { relayArchive } from '../scripts/relay-archive';
import type { RedisContext } from './context';

/** Entries of a player's archive stream relayed per script call at most. */
const RELAY_BATCH = 100;

/**
 * The archive's relay on the per-slot protocol (docs/archive.md, "On a Redis Cluster"). A
 * script that journals a player's money (or protection) writes its archive entry to the
 * player's own stream, in the player's slot, atomically with the line; the relay then copies
 * the stream's entries to the money stream of the player's archive shard (relayArchive-3.lua,
 * once per entry), waits for the shard's replica, and only then trims the player's stream. A
 * cut anywhere leaves the entries in the player's stream, to be relayed again by the player's
 * next relay: the settlement of a unit (before the unit counts as settled), a deposit, a
 * withdrawal, a protection change, or the recovery, which visits every player of the pending
 * index (`announce` puts them there before their script runs).
 */
export class ArchiveRelay {
  constructor(private readonly ctx: RedisContext) {}

  /**
   * Before a script that writes the player's archive stream: the player joins the pending
   * index (as a purchase does), so the recovery relays what a cut leaves behind.
   */
  async announce(playerId: string, now: number): Promise<void> {
    const { keys, redis } = this.ctx;
    await redis.zadd(keys.pendingIndex(keys.pendingShard(playerId)), 'GT', now, playerId);
  }

  /** Relays the player's archive stream whole to their shard; how many entries the shard took now. */
  async relay(playerId: string, now: number): Promise<number> {
    const { ctx } = this;
    const source = ctx.keys.playerOutbox(playerId);
    const shard = ctx.keys.archiveShard(playerId);
    const stream = ctx.keys.outbox(shard.stream);
    const window = ctx.window(now);
    let relayed = 0;
    for (;;) {
      const entries = await ctx.redis.xrange(source, '-', '+', 'COUNT', RELAY_BATCH);
      if (entries.length === 0) return relayed;
      relayed += await relayArchive(ctx.run, { stream, marks: shard.marks(window), previousMarks: shard.marks(window - 1) }, { playerId, marksTtlMs: ctx.requestsTtl(now), entries });
      // The shard's copy must outlive its master before the player's is dropped.
      await ctx.replicated(stream);
      await ctx.redis.xtrim(source, 'MINID', idAfter(entries.at(-1)![0]));
      if (entries.length < RELAY_BATCH) return relayed;
    }
  }
}
