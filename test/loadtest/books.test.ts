import { strict as assert } from 'node:assert';
import { blockCounts, checkBooks, type BooksInput, type PlayerBooks, type RecallFacts } from '../../loadtest/books';
import { RAIN_DIAMONDS_TABLE } from '../../src/games/rain-diamonds/prize-table';
import { rulesOf } from '../../src/games/registry';

/**
 * The books check on hand-made ledgers: a consistent run passes, and each way of getting the
 * books wrong is caught with a sentence that says what and where.
 */

const GAME = 'rain-diamonds';
const STAKE = RAIN_DIAMONDS_TABLE.stake;
const WIN = RAIN_DIAMONDS_TABLE.tiers[RAIN_DIAMONDS_TABLE.tiers.length - 1]!.prize;
const BLOCK = 'rain-diamonds-50.0';
const SOLD_AT = '2026-03-28T20:00:00.000Z';
const seed = (n: number) => new Uint8Array(32).fill(n);
const scenario = (prize: number, n: number) => rulesOf(GAME).generate({ stake: STAKE, prize }, seed(n), undefined);

interface Unit { unitId: string; prize: number | null; dealt: number }

/** A consistent run: two players, a few units each (one of them unfinished). */
function consistent(): { input: BooksInput; units: Map<string, Unit[]> } {
  const units = new Map<string, Unit[]>([
    ['p1', [{ unitId: `${BLOCK}:0`, prize: WIN, dealt: WIN }, { unitId: `${BLOCK}:1`, prize: 0, dealt: 0 }, { unitId: `${BLOCK}:3`, prize: null, dealt: 0 }]],
    ['p2', [{ unitId: `${BLOCK}:2`, prize: 0, dealt: 0 }, { unitId: `${BLOCK}:4`, prize: WIN, dealt: WIN }]],
  ]);
  const players: PlayerBooks[] = [];
  const recalls = new Map<string, RecallFacts>();
  let n = 0;
  for (const [playerId, list] of units) {
    const initial = 10_000;
    const balance = initial - list.length * STAKE + list.reduce((s, u) => s + (u.prize ?? 0), 0);
    const held = list.filter((u) => u.prize === null).length * STAKE;
    players.push({
      playerId,
      pseudonym: `lt-${playerId}`,
      initialBalance: initial,
      units: list.map((u) => ({ unitId: u.unitId, game: GAME, stake: STAKE, prize: u.prize })),
      wallet: { balance, held },
      history: list.map((u) => ({ unitId: u.unitId, game: GAME, stake: STAKE, status: u.prize === null ? 'in_progress' : 'finished', prize: u.prize })),
    });
    for (const u of list) {
      recalls.set(u.unitId, {
        unitId: u.unitId,
        game: GAME,
        stake: STAKE,
        blockId: BLOCK,
        position: Number(u.unitId.split(':')[1]),
        status: u.prize === null ? 'in_progress' : 'finished',
        prize: u.prize,
        scenario: u.prize === null ? null : scenario(u.dealt, ++n),
        soldAt: SOLD_AT,
      });
    }
  }
  const all = [...units.values()].flat();
  const perPrize = (list: Unit[]) => {
    const out: Record<string, number> = {};
    for (const t of [0, ...RAIN_DIAMONDS_TABLE.tiers.map((x) => x.prize)]) out[t] = 0;
    for (const u of list) out[u.dealt] = (out[u.dealt] ?? 0) + 1;
    return out;
  };
  return {
    units,
    input: {
      players,
      recalls,
      blocksBefore: [{ blockId: BLOCK, game: GAME, stake: STAKE, sold: 0, perPrize: perPrize([]) }],
      blocksAfter: [{ blockId: BLOCK, game: GAME, stake: STAKE, sold: all.length, perPrize: perPrize(all) }],
    },
  };
}

function problemsOf(input: BooksInput): string[] {
  const result = checkBooks(input);
  assert.equal(result.ok, false, 'the check fails');
  assert.equal(result.problemCount, result.problems.length);
  return [...result.problems];
}

describe('load-test books check', () => {
  it('passes books that add up, re-scoring every finished unit by the rules', () => {
    const result = checkBooks(consistent().input);
    assert.deepEqual(result.problems, []);
    assert.equal(result.ok, true);
    assert.equal(result.checked.units, 5);
    assert.equal(result.checked.unitsFinished, 4);
    assert.equal(result.checked.recallsRescored, 4);
    assert.equal(result.checked.blocks, 1);
  });

  it('catches a balance that is not initial − stakes + prizes', () => {
    const { input } = consistent();
    const p1 = input.players[0]!;
    const wrong = { ...input, players: [{ ...p1, wallet: { balance: p1.wallet!.balance + 50, held: p1.wallet!.held } }, input.players[1]!] };
    const problems = problemsOf(wrong);
    assert.ok(problems.some((p) => p.includes('player lt-p1 (p1)') && p.includes('off by 0.50 €')), problems.join('\n'));
  });

  it('catches a prize the player saw that the history does not credit', () => {
    const { input } = consistent();
    const p2 = input.players[1]!;
    // The client ledger says the second unit won, yet the history (and the wallet) say 0.
    const wrong = { ...input, players: [input.players[0]!, { ...p2, units: p2.units.map((u, i) => (i === 0 ? { ...u, prize: WIN } : u)) }] };
    const problems = problemsOf(wrong);
    assert.ok(problems.some((p) => p.includes(`unit ${BLOCK}:2`) && p.includes('history says 0.00 €')), problems.join('\n'));
    assert.ok(problems.some((p) => p.includes('player lt-p2') && p.includes('balance')), problems.join('\n'));
  });

  it('catches a unit sold that is in no history, and one that is in two', () => {
    const { input } = consistent();
    const [p1, p2] = input.players as [PlayerBooks, PlayerBooks];
    const missing = { ...input, players: [{ ...p1, history: p1.history!.slice(1) }, p2] };
    assert.ok(problemsOf(missing).some((p) => p.includes(`bought unit ${BLOCK}:0, which is not in its history`)));
    const twice = { ...input, players: [p1, { ...p2, history: [...p2.history!, p1.history![0]!] }] };
    const problems = problemsOf(twice);
    assert.ok(problems.some((p) => p.includes(`unit ${BLOCK}:0 is in 2 histories`)), problems.join('\n'));
    assert.ok(problems.some((p) => p.includes('never got from a purchase')), problems.join('\n'));
  });

  it('catches units dealt from a block that no purchase accounts for', () => {
    const { input } = consistent();
    const after = input.blocksAfter![0]!;
    const wrong = { ...input, blocksAfter: [{ ...after, sold: after.sold + 1, perPrize: { ...after.perPrize, 0: after.perPrize[0]! + 1 } }] };
    const problems = problemsOf(wrong);
    assert.ok(problems.some((p) => p.includes(`block ${BLOCK}`) && p.includes('6 units dealt during the run, 5 bought') && p.includes('1 dealt to no one')), problems.join('\n'));
  });

  it('catches a block whose units were dealt at other prizes than they show', () => {
    const { input } = consistent();
    const after = input.blocksAfter![0]!;
    // Same count, but one winning unit recorded as a losing one in the block.
    const wrong = { ...input, blocksAfter: [{ ...after, perPrize: { ...after.perPrize, 0: after.perPrize[0]! + 1, [WIN]: after.perPrize[WIN]! - 1 } }] };
    const problems = problemsOf(wrong);
    assert.ok(problems.some((p) => p.includes('dealt per prize ≠ shown per prize')), problems.join('\n'));
  });

  it('catches a finished unit that paid other than its scenario scores', () => {
    const { input } = consistent();
    const recalls = new Map(input.recalls);
    const unitId = `${BLOCK}:1`;
    // A losing unit paid as a winner, everywhere the server reports it: only the rules can tell.
    recalls.set(unitId, { ...(recalls.get(unitId) as RecallFacts), prize: WIN });
    const players = input.players.map((p) => (p.playerId !== 'p1' ? p : {
      ...p,
      units: p.units.map((u) => (u.unitId === unitId ? { ...u, prize: WIN } : u)),
      history: p.history!.map((l) => (l.unitId === unitId ? { ...l, prize: WIN } : l)),
      wallet: { balance: p.wallet!.balance + WIN, held: p.wallet!.held },
    }));
    const problems = problemsOf({ ...input, players, recalls });
    assert.ok(problems.some((p) => p.includes(`unit ${unitId}`) && p.includes(`paid ${(WIN / 100).toFixed(2)} €, but its scenario scores 0.00 €`)), problems.join('\n'));
  });

  it('fails when the block report cannot be read, saying why', () => {
    const { input } = consistent();
    const problems = problemsOf({ ...input, blocksAfter: undefined, blocksError: 'GET /admin/blocks: 401' });
    assert.deepEqual(problems, ['units dealt per block could not be checked: GET /admin/blocks: 401']);
  });

  it("fails when a player's wallet or history cannot be read, saying why", () => {
    const { input } = consistent();
    const [p1, p2] = input.players;
    const players = [
      { ...p1!, wallet: undefined, walletError: 'join/timeout' },
      { ...p2!, history: undefined, historyError: 'GET /history: 503 server/unavailable' },
    ];
    const problems = problemsOf({ ...input, players });
    assert.ok(problems.some((p) => /the final wallet could not be read \(join\/timeout\)/.test(p)), problems.join('\n'));
    assert.ok(problems.some((p) => /the history could not be read \(GET \/history: 503 server\/unavailable\)/.test(p)), problems.join('\n'));
  });

  it('reads the operator block report, per prize including losing units', () => {
    const counts = blockCounts({ emissions: [{ game: GAME, stake: STAKE, blocks: [{ blockId: BLOCK, sold: 3, tiers: [{ tierId: 0, prize: 0, won: 2 }, { tierId: 7, prize: WIN, won: 1 }] }] }] });
    assert.deepEqual(counts, [{ blockId: BLOCK, game: GAME, stake: STAKE, sold: 3, perPrize: { 0: 2, [WIN]: 1 } }]);
  });
});
