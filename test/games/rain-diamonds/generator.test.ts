import { strict as assert } from 'node:assert';
import { rainDiamondsRules, COLOURS, PRIZE_BY_COLOUR } from '../../../src/games/rain-diamonds';
import type { Colour, RainDiamondsScenario } from '../../../src/games/rain-diamonds';
import { playThrough } from '../../../src/games/rain-diamonds/evaluator';
import { Rng, nonceFor } from '../../../src/random/rng';
import { PRIZES, STAKE, seedOf } from './helpers';

const rules = rainDiamondsRules;
const SEEDS_PER_TIER = 200;

/** Gems each box collects, by playing the reveal (through the reducer's events). */
function perBox(prize: number, label: string): { colour: Colour; count: number }[] {
  const first = rules.start({ stake: STAKE, prize }, seedOf(label), undefined);
  const done = rules.complete(first.state);
  return done.events.flatMap((e) => (e.type === 'gems_collected' ? [{ colour: e.colour, count: e.cells.length }] : []));
}

/** Largest number of gems of one colour a scenario collects. */
const mostOfOne = (s: RainDiamondsScenario) => Math.max(...playThrough(s).totals);

/**
 * The neutral draw, written here independently of the generator: every gem of the grid and of
 * long enough queues and every box colour uniform and independent.
 */
function neutralDraw(rng: Rng): RainDiamondsScenario {
  const colour = () => COLOURS[rng.below(COLOURS.length)]!;
  const grid = Array.from({ length: 5 }, () => Array.from({ length: 4 }, colour));
  const queues = Array.from({ length: 5 }, () => Array.from({ length: 20 }, colour));
  const boxes = Array.from({ length: 5 }, colour);
  const { used } = playThrough({ grid, queues, boxes });
  return { grid, queues: queues.map((q, i) => q.slice(0, used[i])), boxes };
}

describe('rain-diamonds generator', () => {
  for (const prize of PRIZES) {
    for (const choices of rules.choiceSpace) {
      it(`deals ${SEEDS_PER_TIER} scenarios worth exactly ${prize} cents that break no rule (choices ${String(choices)})`, () => {
        for (let i = 0; i < SEEDS_PER_TIER; i++) {
          const s = rules.generate({ stake: STAKE, prize }, seedOf(`tier ${prize} #${i}`), choices);
          assert.equal(rules.evaluate(s), prize, `seed #${i}`);
          assert.deepEqual(rules.ruleViolations(s), [], `seed #${i}`);
        }
      });
    }
  }

  it('gives the same scenario bit for bit for the same seed, and another for another seed', () => {
    for (const prize of PRIZES) {
      const a = rules.generate({ stake: STAKE, prize }, seedOf('same'), undefined);
      const b = rules.generate({ stake: STAKE, prize }, seedOf('same'), undefined);
      const c = rules.generate({ stake: STAKE, prize }, seedOf('other'), undefined);
      assert.equal(JSON.stringify(a), JSON.stringify(b));
      assert.notEqual(JSON.stringify(a), JSON.stringify(c));
    }
  });

  it('refuses a prize the game does not have and a price it is not sold at', () => {
    assert.throws(() => rules.generate({ stake: STAKE, prize: 200 }, seedOf('x'), undefined), /no prize of 200/);
    assert.throws(() => rules.generate({ stake: 100, prize: 0 }, seedOf('x'), undefined), /sold at 50/);
  });

  it('wins with 6 gems of the prize colour, in one box or over two, three or four boxes', () => {
    for (const prize of PRIZES.slice(1)) {
      const colour = COLOURS.find((c) => PRIZE_BY_COLOUR[c] === prize)!;
      const spreads = new Set<number>();
      for (let i = 0; i < SEEDS_PER_TIER; i++) {
        const boxes = perBox(prize, `tier ${prize} #${i}`).filter((b) => b.colour === colour && b.count > 0);
        assert.equal(boxes.reduce((n, b) => n + b.count, 0), 6);
        spreads.add(boxes.length);
      }
      assert.deepEqual([...spreads].sort(), [1, 2, 3, 4], `prize ${prize}`);
    }
  });

  it('shows boxes that collect nothing, in winning and in losing units', () => {
    for (const prize of [0, 50, 500_000]) {
      let empty = 0;
      for (let i = 0; i < SEEDS_PER_TIER; i++) empty += perBox(prize, `tier ${prize} #${i}`).filter((b) => b.count === 0).length;
      assert.ok(empty > 10, `prize ${prize}: ${empty} empty boxes`);
    }
  });

  it('shows near misses in losing units as often as the neutral draw does', () => {
    // Distribution of "most gems of one colour" over losing units: generator vs neutral draw.
    const n = 3000;
    const histogram = (draw: (i: number) => RainDiamondsScenario | undefined) => {
      const h = [0, 0, 0, 0, 0, 0];
      let kept = 0;
      for (let i = 0; kept < n; i++) {
        const s = draw(i);
        if (s === undefined) continue;
        h[mostOfOne(s)]!++;
        kept++;
      }
      return h.map((x) => x / n);
    };
    const rng = new Rng(seedOf('neutral'), nonceFor('test'));
    const neutral = histogram(() => {
      const s = neutralDraw(rng);
      return mostOfOne(s) < 6 ? s : undefined;
    });
    const dealt = histogram((i) => rules.generate({ stake: STAKE, prize: 0 }, seedOf(`loss #${i}`), undefined));
    for (let most = 2; most <= 5; most++) {
      // 3000 draws each: a standard error near 1 point; 4 points is far beyond chance.
      assert.ok(Math.abs(neutral[most]! - dealt[most]!) < 0.04, `most ${most}: neutral ${neutral[most]}, dealt ${dealt[most]}`);
    }
    assert.ok(dealt[5]! > 0.1, 'near misses do happen');
  });
});
