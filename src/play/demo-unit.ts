import { rulesOf } from '../games/registry';
import type { Choose, GameId } from '../games/types';
import type { LiveUnit } from './live-unit';
import type { PlayService } from './play-service';

/**
 * Buys one unit and plays it to its end as a person would, step by step (the game's demo script,
 * choosing with `choose`): how the recall examples and the verification tests get real units.
 */
export async function playDemoUnit(
  play: PlayService,
  player: { readonly playerId: string; readonly pseudonym: string },
  request: { readonly game: GameId; readonly stake: number; readonly requestId: string; readonly picks?: unknown },
  choose: Choose,
): Promise<LiveUnit> {
  const { game } = request;
  const bought = await play.buy(player, { ...request, picks: request.picks ?? rulesOf(game).demoPicks(choose, 1) });
  if (!bought.ok) throw new Error(`${game}: ${bought.code}`);
  let unit = bought.units[0]!;
  for (const action of rulesOf(game).demoScript(choose, { auto: false })) {
    if (unit.finished) break;
    const acted = await play.act(player.playerId, [unit], { action });
    if (acted.refusal) throw new Error(`${game}: ${acted.refusal.code}`);
    unit = acted.units[0]!;
  }
  if (!unit.finished) throw new Error(`${game}: the step-by-step script did not finish the unit`);
  return unit;
}
