/**
 * When each step of a watched table reached the player's own client and its watchers: the
 * watch delay (a watcher's receipt − the player's) and the watchers served before the player.
 * Steps are keyed `${unitId}:${seq}`. Only the last few hundred are kept: enough for any
 * watcher that lags behind.
 */
export class StepClock {
  private readonly playerSaw = new Map<string, number>();
  /** Steps watchers got before the player, with when each of them got it. */
  private readonly early = new Map<string, number[]>();

  /** The player's client got `key` at `now` (`isNew` false: it had it already), and how long ago each watcher served first got it. */
  player(key: string, now: number): { isNew: boolean; leads: number[] } {
    if (this.playerSaw.has(key)) return { isNew: false, leads: [] };
    this.playerSaw.set(key, now);
    if (this.playerSaw.size > 512) {
      let drop = 256;
      for (const old of this.playerSaw.keys()) {
        if (drop-- <= 0) break;
        this.playerSaw.delete(old);
      }
    }
    const early = this.early.get(key);
    if (early === undefined) return { isNew: true, leads: [] };
    this.early.delete(key);
    return { isNew: true, leads: early.map((at) => now - at) };
  }

  /** A watcher got `key` at `now`: its delay after the player, or undefined when it was first (told later by `player`). */
  watcher(key: string, now: number): number | undefined {
    const playerAt = this.playerSaw.get(key);
    if (playerAt !== undefined) return now - playerAt;
    if (this.early.size > 512) this.early.clear();
    const early = this.early.get(key);
    if (early) early.push(now);
    else this.early.set(key, [now]);
    return undefined;
  }
}
