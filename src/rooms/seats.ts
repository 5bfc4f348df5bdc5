import type { Presence } from '@colyseus/core';

/** Hash of the seats: `<playerId>:<game>` → roomId. */
export function seatsKey(prefix: string): string {
  return `${prefix}:seats`;
}

/**
 * Which table each seated player has open, per game, for every process (Colyseus presence):
 * the sweeper finishes an abandoned unit through the table that shows it, so that its player
 * sees the end first.
 */
export class Seats {
  private readonly key: string;

  constructor(
    private readonly presence: Presence,
    prefix: string,
  ) {
    this.key = seatsKey(prefix);
  }

  take(playerId: string, game: string, roomId: string): Promise<unknown> {
    return this.presence.hset(this.key, field(playerId, game), roomId);
  }

  /** Frees the seat if this room still holds it (a newer table of the player may have taken it). */
  async leave(playerId: string, game: string, roomId: string): Promise<void> {
    if ((await this.find(playerId, game)) === roomId) await this.presence.hdel(this.key, field(playerId, game));
  }

  async find(playerId: string, game: string): Promise<string | undefined> {
    return (await this.presence.hget(this.key, field(playerId, game))) ?? undefined;
  }
}

function field(playerId: string, game: string): string {
  return `${playerId}:${game}`;
}
