import type { GamePace } from '../protocol/catalog';
import type { GameId } from '../games/types';
import type { Refusal } from '../games/types';

/**
 * The server's pacing of play (docs/responsible-gaming.md, "Pacing"): PACE_UNIT_MS and
 * PACE_STEP_MS for every game, PACE_BY_GAME for some. Nothing a client sends changes it.
 */
export interface PaceSettings extends GamePace {
  readonly byGame: Readonly<Partial<Record<GameId, GamePace>>>;
}

export function paceOf(settings: PaceSettings, game: GameId): GamePace {
  return settings.byGame[game] ?? { unitMs: settings.unitMs, stepMs: settings.stepMs };
}

/** The longest `unitMs` of every game: past it, a player's last start refuses nothing. */
export function longestPace(settings: PaceSettings): number {
  return Math.max(settings.unitMs, ...Object.values(settings.byGame).map((p) => p.unitMs));
}

/** A unit's start taken, to give back if its purchase is refused (only while it is still the player's last). */
export interface PaceStarted {
  readonly ok: true;
  release(): Promise<void>;
}

/**
 * No two units of a player start closer than their game's `unitMs`, whichever of the player's
 * tables buys them, on whichever process: a purchase that comes sooner is refused with the time
 * it may come again (`pace/too_fast`, `details.retryAfterMs`). The start is taken when the
 * purchase is tried, so two tables racing cannot both pass, and given back when it is refused.
 * In memory for the embedded server (one process); on Redis, shared (src/play/redis-pacer.ts).
 */
export interface Pacer {
  /** The start of a unit of `game` for `playerId` now (the store's clock), or the refusal. */
  start(playerId: string, game: GameId): Promise<PaceStarted | Refusal>;
}

/** The refusal of a start `retryAfterMs` too soon for a pace of `unitMs`. */
export function tooFast(unitMs: number, retryAfterMs: number): Refusal {
  return { ok: false, code: 'pace/too_fast', message: `one unit every ${unitMs} ms: buy again in ${retryAfterMs} ms`, details: { retryAfterMs } };
}

/** Players whose last start is kept; past it, those older than every game's pace are dropped. */
const KEPT = 10_000;

/** The pace in this process's memory: the embedded server's, where one process is every table. */
export class MemoryPacer implements Pacer {
  private readonly started = new Map<string, { readonly at: number }>();

  constructor(
    private readonly settings: PaceSettings,
    private readonly now: () => number,
  ) {}

  async start(playerId: string, game: GameId): Promise<PaceStarted | Refusal> {
    const now = this.now();
    const { unitMs } = paceOf(this.settings, game);
    const last = this.started.get(playerId);
    // An unpaced game never waits, even on a last start stamped by a clock reading a little ahead.
    if (last !== undefined && unitMs > 0 && now - last.at < unitMs) return tooFast(unitMs, last.at + unitMs - now);
    this.forgetOld(now);
    // Its own object: a release finds its start by identity, not by a time another start may share.
    const mine = { at: now };
    this.started.set(playerId, mine);
    return {
      ok: true,
      release: async () => {
        if (this.started.get(playerId) !== mine) return;
        if (last === undefined) this.started.delete(playerId);
        else this.started.set(playerId, last);
      },
    };
  }

  private forgetOld(now: number): void {
    if (this.started.size < KEPT) return;
    const longest = longestPace(this.settings);
    for (const [player, { at }] of this.started) if (now - at >= longest) this.started.delete(player);
  }
}
