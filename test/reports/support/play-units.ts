import { strict as assert } from 'node:assert';
import type { ActionLog } from '../../../src/action-log/action-log';
import type { DealerStore } from '../../../src/dealer/types';
import type { PrizeTable } from '../../../src/games/types';
import { rulesOf } from '../../../src/games/registry';
import { PlayService } from '../../../src/play/play-service';
import type { RecallRecord } from '../../../src/protocol/recall';

const first = (): number => 0;

export interface PlayedUnit {
  readonly playerId: string;
  readonly record: RecallRecord;
}

/**
 * Plays `count` units through the play service, each to its end by the game's demo script, one
 * every `everyMs` from `start`, taking the tables and the players in turn; the players are
 * funded first. Returns each unit's recall.
 */
export async function playUnits(dealer: DealerStore, log: ActionLog, options: { count: number; start: number; everyMs: number; tables: readonly PrizeTable[]; players: readonly string[] }): Promise<PlayedUnit[]> {
  let clock = options.start;
  const play = new PlayService(dealer, log, () => clock);
  for (const playerId of options.players) await dealer.wallets.deposit(playerId, 10_000_000, `fund-${playerId}`, clock);
  const played: PlayedUnit[] = [];
  for (let i = 0; i < options.count; i++) {
    clock += options.everyMs;
    const table = options.tables[i % options.tables.length]!;
    const playerId = options.players[i % options.players.length]!;
    const bought = await play.buy({ playerId, pseudonym: playerId }, { game: table.game, stake: table.stake, requestId: `unit${i}`, picks: rulesOf(table.game).demoPicks(first, 1) });
    assert.ok(bought.ok, JSON.stringify(bought));
    let unit = bought.units[0]!;
    for (const action of rulesOf(table.game).demoScript(first, { auto: false })) {
      if (unit.finished) break;
      unit = (await play.act(playerId, [unit], { action })).units[0]!;
    }
    played.push({ playerId, record: (await play.recall(playerId, unit.sale.unitId))!.record });
  }
  return played;
}
