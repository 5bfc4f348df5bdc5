import { strict as assert } from 'node:assert';
import { PRIZE_TABLES } from '../../src/games/prize-tables';
import { rulesOf } from '../../src/games/registry';
import { GAME_IDS, type GameId } from '../../src/games/types';
import { Rng } from '../../src/random/rng';
import { decodeStep, encodeStep, type StepBy } from '../../src/games/step-codec';

interface PlayedStep {
  readonly by: StepBy;
  readonly events: readonly { readonly type: string }[];
}

/**
 * The steps of one unit of `game` played with the game's demo player: every price, prize tier
 * and pick drawn from `rng`, step by step or AUTO, and one time in four left to the server to
 * complete after its first action.
 */
function playUnit(game: GameId, rng: Rng): PlayedStep[] {
  const rules = rulesOf(game);
  const table = rng.pick(PRIZE_TABLES.filter((t) => t.game === game));
  const prize = rng.chance(1, 3) ? 0 : rng.pick(table.tiers).prize;
  const choose = (n: number) => rng.below(n);
  const picks = rules.parsePicks(rules.demoPicks(choose, 1));
  if (!picks.ok) throw new Error(picks.message);
  const seed = new Uint8Array(32).map(() => rng.below(256));
  const first = rules.start({ stake: table.stake, prize }, seed, picks.value[0]);
  let state = first.state;
  const steps: PlayedStep[] = [{ by: 'purchase', events: first.events }];
  const serverCompletes = rng.chance(1, 4);
  for (const raw of rules.demoScript(choose, { auto: rng.chance(1, 2) })) {
    if (rules.isFinished(state)) break;
    if (serverCompletes && steps.length > 1) break;
    const action = rules.parseAction(raw);
    if (!action.ok) throw new Error(action.message);
    const step = rules.reduce(state, action.value);
    if (!step.ok) throw new Error(step.message);
    state = step.state;
    steps.push({ by: 'player', events: step.events });
  }
  if (!rules.isFinished(state)) steps.push({ by: 'server', events: rules.complete(state).events });
  return steps;
}

/** `units` units of every game, the same ones on every run. */
function unitsOfEveryGame(units: number): Map<GameId, PlayedStep[][]> {
  const rng = new Rng(new Uint8Array(32).fill(25));
  return new Map(GAME_IDS.map((game) => [game, Array.from({ length: units }, () => playUnit(game, rng))]));
}

const wireBytes = (steps: readonly PlayedStep[]) => steps.reduce((n, s) => n + Buffer.byteLength(encodeStep(s.by, s.events)), 0);
const jsonBytes = (steps: readonly PlayedStep[]) => steps.reduce((n, s, seq) => n + Buffer.byteLength(JSON.stringify({ seq, by: s.by, events: s.events })), 0);

describe('step codec', () => {
  const played = unitsOfEveryGame(300);

  it('decodes every event of every game to the object the reducer gave, field for field and in its key order', () => {
    const types = new Set<string>();
    for (const [game, units] of played) {
      for (const steps of units) {
        for (const step of steps) {
          const decoded = decodeStep(encodeStep(step.by, step.events));
          assert.deepStrictEqual(decoded, { by: step.by, events: step.events }, game);
          assert.equal(JSON.stringify(decoded.events), JSON.stringify(step.events), `${game}: key order`);
          for (const event of step.events) types.add(event.type);
        }
      }
    }
    // Every event type of every game came up (a codec no unit exercised would prove nothing).
    assert.equal(types.size, 15, [...types].join(', '));
  });

  it('refuses to encode an event type it has no code for', () => {
    assert.throws(() => encodeStep('player', [{ type: 'confetti' }]), /no code for event type confetti/);
  });

  it('refuses a value outside its list rather than sending a wrong one', () => {
    assert.throws(() => encodeStep('player', [{ type: 'lamp_opened', result: 'purple' } as { type: string }]), /purple is not one of \w+(, \w+)+$/, 'the values it takes, listed');
  });

  /**
   * Bounds measured on these fixed units (300 of each game, the same on every run), as the sum
   * of the steps' wire text a unit, against the readable JSON `{ seq, by, events }` sent before:
   * rain-diamonds 296.2 (JSON 2,296.6), 500000-carats 462.0 (2,366.2), noel-de-la-chance 228.1
   * (1,252.3), mine-d-or 72.5 (443.0), mysteres-de-la-lampe 57.6 (358.8). Each bound is that plus ~5 %:
   * a field added back, or a value sent as its name again, fails here.
   */
  it('keeps the steps of a unit within the bytes measured for each game', () => {
    const bound: Record<GameId, number> = {
      'rain-diamonds': 311,
      '500000-carats': 485,
      'noel-de-la-chance': 240,
      'mine-d-or': 76,
      'mysteres-de-la-lampe': 61,
    };
    for (const [game, units] of played) {
      const perUnit = units.reduce((n, steps) => n + wireBytes(steps), 0) / units.length;
      const before = units.reduce((n, steps) => n + jsonBytes(steps), 0) / units.length;
      assert.ok(perUnit <= bound[game], `${game}: ${perUnit.toFixed(1)} bytes a unit (JSON ${before.toFixed(1)}), bound ${bound[game]}`);
    }
  });
});
