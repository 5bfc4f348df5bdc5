import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import { rulesOf } from '../../src/games/registry';
import { GAME_IDS, type Choose } from '../../src/games/types';
import { Rng } from '../../src/random/rng';

function seedOf(label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(label).digest());
}

/** A chooser from a labelled seed, checking every call asks for a real choice. */
function chooser(label: string): Choose {
  const rng = new Rng(seedOf(label));
  return (n) => {
    assert.ok(Number.isInteger(n) && n >= 1, `choose(${n})`);
    return rng.below(n);
  };
}

/**
 * Plays `script` on one unit as a server would (parseAction, reduce), stopping at `finished`.
 * Returns the events and how many actions were sent.
 */
function playUnit(game: (typeof GAME_IDS)[number], stake: number, prize: number, seed: Uint8Array, picks: unknown, script: readonly unknown[]) {
  const rules = rulesOf(game);
  let step = rules.start({ stake, prize }, seed, picks);
  const events = [...step.events];
  let sent = 0;
  for (const raw of script) {
    if (rules.isFinished(step.state)) break;
    const action = rules.parseAction(raw);
    if (!action.ok) assert.fail(`${game}: ${JSON.stringify(raw)} refused: ${action.code}`);
    const next = rules.reduce(step.state, action.value);
    if (!next.ok) assert.fail(`${game}: ${JSON.stringify(raw)} refused: ${next.code}`);
    step = next;
    events.push(...next.events);
    sent++;
  }
  return { finished: rules.isFinished(step.state), events, sent };
}

describe('demo players', () => {
  for (const table of PRIZE_TABLES) {
    const { game, stake } = table;
    const prizes = [0, ...table.tiers.map((t) => t.prize)];
    for (const auto of [false, true]) {
      it(`play every ${game} unit at ${stake} to its end ${auto ? 'with AUTO' : 'step by step'}, every action accepted`, () => {
        const rules = rulesOf(game);
        for (const [i, prize] of prizes.entries()) {
          const choose = chooser(`${game} ${stake} ${i} ${auto}`);
          const picks = rules.parsePicks(rules.demoPicks(choose, 1 + (i % 2)));
          if (!picks.ok) assert.fail(`${game}: demo picks refused: ${picks.code}`);
          for (const [u, unitPicks] of picks.value.entries()) {
            const script = rules.demoScript(choose, { auto });
            const played = playUnit(game, stake, prize, seedOf(`${game} ${i} ${u}`), unitPicks, script);
            assert.ok(played.finished, `${game} at ${prize}: the script ended before the reveal`);
            assert.deepEqual(played.events.filter((e) => e.type === 'finished'), [{ type: 'finished', prize }]);
            // Only Mine d'or stops early (fewer Extra stages than the script presses).
            if (game !== 'mine-d-or') assert.equal(played.sent, script.length);
          }
        }
      });
    }
  }

  it('press AUTO where the game has it; Noël’s only action is the pick, which reveals the 18 cells', () => {
    for (const game of GAME_IDS) {
      const script = rulesOf(game).demoScript(chooser(game), { auto: true });
      if (game === 'noel-de-la-chance') {
        assert.equal(script.length, 1);
        assert.equal((script[0] as { type: string }).type, 'pick');
        const played = playUnit(game, 50, 0, seedOf('noel'), undefined, script);
        assert.equal(played.events.filter((e) => e.type === 'cell_revealed').length, 18);
      } else {
        assert.deepEqual(script, [{ type: 'auto' }]);
      }
    }
  });

  it('take their choices from the chooser: the same chooser plays the same way, another differently', () => {
    for (const game of ['rain-diamonds', '500000-carats'] as const) {
      const rules = rulesOf(game);
      const a = rules.demoScript(chooser('a'), { auto: false });
      assert.deepEqual(rules.demoScript(chooser('a'), { auto: false }), a);
      assert.notDeepEqual(rules.demoScript(chooser('b'), { auto: false }), a);
    }
  });

  it('buy one lamp unit (a colour or a symbol) or both kinds at once; one unit for the other games', () => {
    const lamp = rulesOf('mysteres-de-la-lampe');
    const kinds = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const one = lamp.parsePicks(lamp.demoPicks(chooser(`one ${i}`), 1));
      assert.ok(one.ok && one.value.length === 1);
      kinds.add((one.value[0] as { kind: string }).kind);
      const two = lamp.parsePicks(lamp.demoPicks(chooser(`two ${i}`), 2));
      assert.ok(two.ok && two.value.length === 2);
    }
    assert.deepEqual([...kinds].sort(), ['colour', 'symbol']);
    for (const game of GAME_IDS.filter((g) => g !== 'mysteres-de-la-lampe')) {
      const rules = rulesOf(game);
      assert.deepEqual(rules.parsePicks(rules.demoPicks(chooser(game), 2)), { ok: true, value: [undefined] });
    }
  });
});
