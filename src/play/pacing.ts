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

/** Players whose last start is kept; past it, those older than every game's pace are dropped. */
const KEPT = 10_000;

/**
 * No two units of a player start closer than their game's `unitMs`, whichever of the player's
 * tables on this process buys them: a purchase that comes sooner is refused with the time it
 * may come again (`pace/too_fast`, `details.retryAfterMs`). The start is taken when the purchase
 * is tried, so two tables racing cannot both pass, and given back when it is refused.
 */
export class Pacer {
  private readonly started = new Map<string, number>();

  constructor(
    private readonly settings: PaceSettings,
    private readonly now: () => number,
  ) {}

  /** The start of a unit of `game` for `playerId` now, to `release` if the purchase is refused; or the refusal. */
  start(playerId: string, game: GameId): { readonly ok: true; release(): void } | Refusal {
    const now = this.now();
    const { unitMs } = paceOf(this.settings, game);
    const last = this.started.get(playerId);
    if (last !== undefined && now - last < unitMs) {
      const retryAfterMs = last + unitMs - now;
      return { ok: false, code: 'pace/too_fast', message: `one unit every ${unitMs} ms: buy again in ${retryAfterMs} ms`, details: { retryAfterMs } };
    }
    this.forgetOld(now);
    this.started.set(playerId, now);
    return {
      ok: true,
      release: () => {
        if (this.started.get(playerId) !== now) return;
        if (last === undefined) this.started.delete(playerId);
        else this.started.set(playerId, last);
      },
    };
  }

  private forgetOld(now: number): void {
    if (this.started.size < KEPT) return;
    const longest = Math.max(this.settings.unitMs, ...Object.values(this.settings.byGame).map((p) => p.unitMs));
    for (const [player, at] of this.started) if (now - at >= longest) this.started.delete(player);
  }
}
