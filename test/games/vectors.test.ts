import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { unitSeed } from '../../src/fairness/printing';
import { PRIZE_TABLES, findPrizeTable, prizeOfTier } from '../../src/games/prize-tables';
import { rulesOf } from '../../src/games/registry';
import { decodeStep } from '../../src/games/step-codec';
import { GAME_IDS, type GameId } from '../../src/games/types';
import { VECTORS_FORMAT, playVector, type TestVector, type VectorFile } from '../../src/games/vectors';
import { fromHex, toHex } from '../../src/random/hex';

/**
 * docs/games/vectors/<game>.json (written by `npm run test-vectors`): the code reproduces every
 * vector exactly, and the vectors cover what docs/games/README.md says they cover.
 */

function fileOf(game: GameId): VectorFile {
  return JSON.parse(readFileSync(new URL(`../../docs/games/vectors/${game}.json`, import.meta.url), 'utf8')) as VectorFile;
}

/** What the code makes of a vector's deal, as the file holds it (JSON: no undefined, no prototypes). */
function replayed(v: TestVector): unknown {
  return JSON.parse(JSON.stringify(playVector(v)));
}

function stored(v: TestVector): unknown {
  return { prize: v.prize, picks: v.picks, scenario: v.scenario, steps: v.steps };
}

type AnyEvent = { readonly type: string; readonly [field: string]: unknown };
const eventsOf = (v: TestVector) => v.steps.flatMap((s) => s.events) as AnyEvent[];
const ofType = (v: TestVector, type: string) => eventsOf(v).filter((e) => e.type === type);

describe('game test vectors', () => {
  for (const game of GAME_IDS) {
    describe(game, () => {
      const file = fileOf(game);

      it('holds at least 20 vectors of this game in the documented format', () => {
        assert.equal(file.format, VECTORS_FORMAT);
        assert.equal(file.game, game);
        assert.ok(file.vectors.length >= 20, `${file.vectors.length} vectors`);
        for (const v of file.vectors) assert.equal(v.game, game);
      });

      it('derives each unit seed from the test block seed and a position of its own', () => {
        const blockSeed = fromHex(file.blockSeed);
        for (const v of file.vectors) assert.equal(v.unitSeed, toHex(unitSeed(blockSeed, v.position)), v.case);
        assert.equal(new Set(file.vectors.map((v) => v.position)).size, file.vectors.length);
      });

      it('reproduces every vector exactly: scenario, every step and its wire text, prize', () => {
        for (const v of file.vectors) assert.deepEqual(replayed(v), stored(v), v.case);
      });

      it('pays each vector its tier, by the evaluator, and ends with that prize', () => {
        const rules = rulesOf(game);
        for (const v of file.vectors) {
          assert.equal(v.prize, prizeOfTier(findPrizeTable(game, v.stake)!, v.tierId), v.case);
          assert.equal(rules.evaluate(v.scenario), v.prize, v.case);
          assert.deepEqual(rules.ruleViolations(v.scenario), [], v.case);
          assert.deepEqual(eventsOf(v).at(-1), { type: 'finished', prize: v.prize }, v.case);
        }
      });

      it('gives each step the wire text the page decodes back to its events', () => {
        for (const v of file.vectors) {
          for (const step of v.steps) assert.deepEqual(JSON.parse(JSON.stringify(decodeStep(step.wire))), { by: step.by, events: step.events }, v.case);
        }
      });

      it('covers every tier at every price, step by step and finished by the server', () => {
        for (const table of PRIZE_TABLES.filter((t) => t.game === game)) {
          for (let tierId = 0; tierId <= table.tiers.length; tierId++) {
            assert.ok(file.vectors.some((v) => v.stake === table.stake && v.tierId === tierId), `no vector of tier ${tierId} at ${table.stake}`);
          }
        }
        assert.ok(file.vectors.some((v) => v.steps.some((s) => s.by === 'server')), 'no unit finished by the server');
      });
    });
  }

  it('covers RAIN DIAMONDS cascades: falls, entries, a box collecting nothing, AUTO', () => {
    const { vectors } = fileOf('rain-diamonds');
    assert.ok(vectors.some((v) => ofType(v, 'gems_fell').length > 0 && ofType(v, 'gems_entered').length > 0));
    assert.ok(vectors.some((v) => ofType(v, 'gems_collected').some((e) => (e.cells as unknown[]).length === 0)));
    assert.ok(vectors.some((v) => v.actions.some((a) => (a.action as { type: string }).type === 'auto')));
  });

  it('covers 500 000 CARATS splits: 100 € as 1, 2, 5 and 6 matches, and a drag', () => {
    const { vectors } = fileOf('500000-carats');
    const matches = (v: TestVector) => ofType(v, 'number_revealed').filter((e) => e.matched).length;
    for (const n of [1, 2, 5, 6]) assert.ok(vectors.some((v) => v.prize === 10_000 && matches(v) === n), `100 € as ${n}`);
    assert.ok(vectors.some((v) => v.actions.some((a) => (a.action as { type: string }).type === 'reveal_many')));
  });

  it('covers each Noël symbol picked at every price, and the server picking', () => {
    const { vectors } = fileOf('noel-de-la-chance');
    for (const stake of [50, 100, 200]) {
      for (const symbol of ['star', 'bell', 'gift']) {
        assert.ok(vectors.some((v) => v.stake === stake && v.prize > 0 && (v.scenario as { symbol: string }).symbol === symbol), `${symbol} winning at ${stake}`);
      }
      assert.ok(vectors.some((v) => v.stake === stake && v.steps.some((s) => s.by === 'server')));
    }
  });

  it("covers Mine d'or with 0 to 4 Extra stages, a combination in a stage and a doubled one", () => {
    const { vectors } = fileOf('mine-d-or');
    const grids = (v: TestVector) => ofType(v, 'grid_revealed') as unknown as { stage: number; combinations: { aligned: boolean }[] }[];
    for (let k = 0; k <= 4; k++) assert.ok(vectors.some((v) => grids(v).length === k + 1), `${k} stages`);
    assert.ok(vectors.some((v) => grids(v).some((g) => g.stage > 0 && g.combinations.length > 0)));
    assert.ok(vectors.some((v) => grids(v).some((g) => g.combinations.some((c) => c.aligned))));
  });

  it('covers both lamp kinds winning and losing, and a pair as two units of one purchase', () => {
    const { vectors } = fileOf('mysteres-de-la-lampe');
    for (const kind of ['colour', 'symbol']) {
      const ofKind = vectors.filter((v) => (v.picks as { kind: string }).kind === kind);
      assert.ok(ofKind.some((v) => v.prize > 0) && ofKind.some((v) => v.prize === 0), kind);
    }
    const pairs = vectors.filter((v) => v.unit === 1);
    assert.ok(pairs.length > 0);
    for (const second of pairs) {
      const first = vectors.find((v) => v.position === second.position - 1)!;
      assert.deepEqual(first.purchasePicks, second.purchasePicks);
      assert.deepEqual([first.picks, second.picks], second.purchasePicks);
    }
  });

  it('is re-generated, scenario and steps, by docs/games/recipes.py, written from the recipes alone', function () {
    const run = spawnSync('python3', ['docs/games/recipes.py'], { encoding: 'utf8' });
    if (run.error) this.skip(); // no Python on this machine
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.equal((run.stdout.match(/re-generated exactly/g) ?? []).length, GAME_IDS.length);
  });

  describe('tampered vectors', () => {
    /** A vector the code does not reproduce: it differs, or it cannot be played. */
    const rejected = (v: TestVector) => {
      try {
        return !isDeepStrictEqual(replayed(v), stored(v));
      } catch {
        return true;
      }
    };
    const rain = () => structuredClone(fileOf('rain-diamonds').vectors.find((v) => v.prize > 0 && v.actions.length === 5)!);
    const alterations: [string, () => TestVector][] = [
      ['a gem of the scenario', () => { const v = rain(); const s = v.scenario as { grid: string[][] }; s.grid[0]![0] = s.grid[0]![0] === 'blue' ? 'green' : 'blue'; return v; }],
      ['two collected cells swapped (list order)', () => {
        const v = rain();
        const e = v.steps.flatMap((st) => st.events).find((x) => x.type === 'gems_collected' && (x as unknown as { cells: unknown[] }).cells.length >= 2) as unknown as { cells: unknown[] };
        e.cells.reverse();
        return v;
      }],
      ['a step wire text', () => { const v = rain(); (v.steps[1] as { wire: string }).wire = v.steps[2]!.wire; return v; }],
      ['the prize', () => ({ ...rain(), prize: rain().prize + 50 })],
      ['the tier', () => ({ ...rain(), tierId: rain().tierId + 1 })],
      ['the unit seed', () => ({ ...rain(), unitSeed: `00${rain().unitSeed.slice(2)}` })],
      ['an action', () => { const v = rain(); (v.actions[0]!.action as { box: number }).box = (v.actions[1]!.action as { box: number }).box; return v; }],
      ['a dropped action', () => ({ ...rain(), actions: rain().actions.slice(0, -1) })],
      ['a dropped step', () => ({ ...rain(), steps: rain().steps.slice(0, -1) })],
      ['the lamp pick', () => { const v = structuredClone(fileOf('mysteres-de-la-lampe').vectors.find((x) => x.prize === 0)!); (v.picks as { choice: string }).choice = 'zzz'; return v; }],
      ["a Mine d'or symbol shown", () => {
        const v = structuredClone(fileOf('mine-d-or').vectors.find((x) => x.prize > 0)!);
        const symbols = (v.steps[0]!.events[0] as unknown as { symbols: string[] }).symbols;
        symbols[0] = symbols[0] === 'pioche' ? 'cactus' : 'pioche';
        return v;
      }],
    ];
    for (const [what, altered] of alterations) {
      it(`are not reproduced: ${what}`, () => assert.ok(rejected(altered())));
    }
    it('leave the untouched vector reproduced', () => assert.ok(!rejected(rain())));
  });
});
