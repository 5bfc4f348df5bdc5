/**
 * npm run recall-examples: plays one unit of each game in memory (a winning one where the block
 * gives one within a few hundred tries) and writes its recall record to
 * docs/recall-examples/<game>.json, and a lamp pair to mysteres-de-la-lampe-pair.json: the real
 * examples that docs/recall.md points to. Beside each, `<name>.block.json`: its block as
 * `GET /fairness/blocks/:blockId` answered then, so that `npm run verify-unit -- <name>.json
 * --block <name>.block.json` checks it (test/audit/recall-examples.test.ts does).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { publicBlockDetail } from '../src/fairness/public-blocks';
import { MemoryStore } from '../src/dealer/memory/store';
import { PRIZE_TABLES } from '../src/games/prize-tables';
import { GAME_IDS } from '../src/games/types';
import { playDemoUnit } from '../src/play/demo-unit';
import { PlayService } from '../src/play/play-service';
import { MemoryActionLog } from '../src/action-log/action-log';

/** The demo player takes the first option of every choice: the same actions each run (the units come from a fresh block). */
const first = (): number => 0;

async function main(): Promise<void> {
  const dealer = new MemoryStore();
  const play = new PlayService(dealer, new MemoryActionLog(), () => Date.now());
  for (const table of PRIZE_TABLES) {
    await dealer.emissions.openEmission({ emissionId: `${table.game}-${table.stake}`, table, blockCount: 1, now: Date.now() });
  }
  const outDir = new URL('../docs/recall-examples/', import.meta.url);
  mkdirSync(outDir, { recursive: true });
  const save = async (name: string, unitId: string, playerId: string) => {
    const record = (await play.recall(playerId, unitId))!.record;
    writeFileSync(new URL(`${name}.json`, outDir), `${JSON.stringify(record, null, 2)}\n`);
    writeFileSync(new URL(`${name}.block.json`, outDir), `${JSON.stringify(await publicBlockDetail(dealer, record.blockId), null, 2)}\n`);
  };
  for (const game of GAME_IDS) {
    const stake = PRIZE_TABLES.find((t) => t.game === game)!.stake;
    const player = { playerId: `example-${game}`, pseudonym: 'Example' };
    await dealer.wallets.deposit(player.playerId, 1_000_000, 'example', Date.now());
    for (let attempt = 0; attempt < 500; attempt++) {
      const unit = await playDemoUnit(play, player, { game, stake, requestId: `r${attempt}` }, first);
      if (unit.sale.prize > 0 || attempt === 499) {
        await save(game, unit.sale.unitId, player.playerId);
        console.log(`${game}: ${unit.sale.unitId}, prize ${unit.sale.prize}`);
        break;
      }
    }
  }
  // A lamp pair, revealed together (a winning first unit when the block gives one soon): its
  // recall names the other unit, and its ledger shows the other's stake between its own lines.
  const player = { playerId: 'example-lamp-pair', pseudonym: 'Example' };
  await dealer.wallets.deposit(player.playerId, 1_000_000, 'example', Date.now());
  for (let attempt = 0; attempt < 200; attempt++) {
    const pair = await play.buy(player, {
      game: 'mysteres-de-la-lampe',
      stake: 50,
      requestId: `pair${attempt}`,
      picks: [{ kind: 'colour', choice: 'gold' }, { kind: 'symbol', choice: 'star' }],
    });
    if (!pair.ok) throw new Error(`lamp pair: ${pair.code}`);
    const acted = await play.act(player.playerId, pair.units, { action: { type: 'auto' } });
    if (acted.refusal) throw new Error(`lamp pair: ${acted.refusal.code}`);
    const [first, second] = acted.units;
    if (first!.sale.prize > 0 || attempt === 199) {
      await save('mysteres-de-la-lampe-pair', first!.sale.unitId, player.playerId);
      console.log(`mysteres-de-la-lampe pair: ${first!.sale.unitId} (prize ${first!.sale.prize}) and ${second!.sale.unitId}`);
      break;
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
