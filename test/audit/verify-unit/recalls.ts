import { readFileSync } from 'node:fs';
import { readRecall, type RecallRead } from '../../../src/audit/verify-unit/recall-shape';
import { publicBlockDetail } from '../../../src/fairness/public-blocks';
import { MemoryStore } from '../../../src/dealer/memory/store';
import { PRIZE_TABLES } from '../../../src/games/prize-tables';
import { GAME_IDS, type GameId } from '../../../src/games/types';
import { playDemoUnit } from '../../../src/play/demo-unit';
import { PlayService } from '../../../src/play/play-service';
import type { PublicBlockDetail } from '../../../src/protocol/fairness';
import type { RecallRecord } from '../../../src/protocol/recall';
import { MemoryActionLog } from '../../../src/action-log/action-log';

/** Real recalls, played through PlayService on a memory dealer: what a player would get back. */

export const NOW = 1_764_000_000_000;
export const SERVER = 'https://games.example.test';

export interface PlayedRecall {
  readonly recall: RecallRecord;
  readonly published: PublicBlockDetail;
}

export interface RecallFixture {
  readonly dealer: MemoryStore;
  readonly play: PlayService;
  /** Per game, a winning and a losing finished unit (the first of each the block deals). */
  readonly units: Record<GameId, { readonly win: PlayedRecall; readonly lose: PlayedRecall }>;
  /** A lamp unit bought with a symbol pick (the others of the lamp take a colour). */
  readonly lampSymbol: PlayedRecall;
}

/** The demo player always takes the first option: the same actions each run. */
const first = (): number => 0;

export async function playRecalls(): Promise<RecallFixture> {
  const dealer = new MemoryStore();
  let clock = NOW;
  const play = new PlayService(dealer, new MemoryActionLog(), () => ++clock, undefined, SERVER);
  const units = {} as Record<GameId, { win: PlayedRecall; lose: PlayedRecall }>;
  let request = 0;
  const playOne = async (game: GameId, picks?: unknown): Promise<PlayedRecall & { prize: number }> => {
    const table = PRIZE_TABLES.find((t) => t.game === game)!;
    const player = { playerId: `player-${game}`, pseudonym: 'P' };
    const unit = await playDemoUnit(play, player, { game, stake: table.stake, requestId: `r${request++}`, picks }, first);
    const recall = (await play.recall(player.playerId, unit.sale.unitId))!.record;
    return { recall, published: (await publicBlockDetail(dealer, recall.blockId))!, prize: unit.sale.prize };
  };
  for (const game of GAME_IDS) {
    const table = PRIZE_TABLES.find((t) => t.game === game)!;
    await dealer.emissions.openEmission({ emissionId: `${game}-${table.stake}`, table, blockCount: 1, now: NOW });
    await dealer.wallets.deposit(`player-${game}`, 10_000_000, 'd', NOW);
    const found: { win?: PlayedRecall; lose?: PlayedRecall } = {};
    for (let tries = 0; tries < 400 && !(found.win && found.lose); tries++) {
      const played = await playOne(game);
      if (played.prize > 0) found.win ??= played;
      else found.lose ??= played;
    }
    if (!found.win || !found.lose) throw new Error(`${game}: no winning and losing unit in 400 tries`);
    units[game] = { win: found.win, lose: found.lose };
  }
  const lampSymbol = await playOne('mysteres-de-la-lampe', [{ kind: 'symbol', choice: 'moon' }]);
  // Every page root is read again now: the recalls' published blocks are the latest.
  for (const game of GAME_IDS) {
    for (const kind of ['win', 'lose'] as const) {
      const played = units[game][kind];
      units[game][kind] = { recall: played.recall, published: (await publicBlockDetail(dealer, played.recall.blockId))! };
    }
  }
  return { dealer, play, units, lampSymbol };
}

/** A saved recall of docs/recall-examples/ (`name` without .json) and its saved published block, parsed afresh to alter. */
export function exampleRecall(name: string): { recall: any; published: any } {
  const read = (file: string) => JSON.parse(readFileSync(new URL(`../../../docs/recall-examples/${file}`, import.meta.url), 'utf8'));
  return { recall: read(`${name}.json`), published: read(`${name}.block.json`) };
}

/** A saved recall of docs/recall-examples/ as the checks read it; `change` alters its JSON first. */
export function readExample(name: string, change: (recall: any) => void = () => {}): RecallRead {
  const { recall } = exampleRecall(name);
  change(recall);
  const read = readRecall(recall);
  if (typeof read === 'string') throw new Error(`${name}: ${read}`);
  return read;
}
