/**
 * npm run test-vectors: (re)writes docs/games/vectors/<game>.json, the games' test vectors
 * (format: docs/games/README.md). Deterministic: the unit seeds come from a fixed test block
 * seed, and each case takes the first free position whose unit shows what the case is about;
 * the actions are drawn from the unit seed under their own label. test/games/vectors.test.ts
 * checks that the code reproduces every vector.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { unitSeed } from '../src/fairness/printing';
import { COLOURS as RAIN_COLOURS } from '../src/games/rain-diamonds/scenario';
import { COLOURS as LAMP_COLOURS, SYMBOLS as LAMP_SYMBOLS } from '../src/games/mysteres-de-la-lampe/scenario';
import { GAME_SYMBOLS } from '../src/games/noel-de-la-chance/scenario';
import { rulesOf } from '../src/games/registry';
import { GAME_IDS, type Cents, type GameId } from '../src/games/types';
import { SERVER_COMPLETE } from '../src/games/replay';
import {
  VECTORS_FORMAT,
  playVector,
  type TestVector,
  type VectorAction,
  type VectorFile,
  type VectorPlay,
} from '../src/games/vectors';
import { toHex } from '../src/random/hex';
import { Rng, nonceFor } from '../src/random/rng';

/** The test block's seed: SHA-256 of the format's name, so anyone can see it hides nothing. */
const BLOCK_SEED = new Uint8Array(createHash('sha256').update(VECTORS_FORMAT).digest());
/** No case needs more; a case that finds no unit this far is a bug in the case. */
const MAX_POSITION = 100_000;

type Events = readonly { readonly type: string; readonly [field: string]: unknown }[];

/** One vector to find: a deal, the player's actions, and what its unit must show. */
interface Case {
  readonly name: string;
  readonly stake: Cents;
  readonly tierId: number;
  readonly purchasePicks?: (choose: (n: number) => number) => unknown;
  /** The player's actions, drawn with `choose`; those after the reveal ends are dropped. */
  readonly actions: (choose: (n: number) => number) => unknown[];
  /** The server finishes the unit after the player's actions (an abandoned unit). */
  readonly serverCompletes?: boolean;
  readonly covers?: (play: VectorPlay, events: Events) => boolean;
}

/** Two units bought together (the lamp pair): consecutive positions, the picks' units 0 and 1. */
interface PairCase {
  readonly name: string;
  readonly stake: Cents;
  readonly tierIds: readonly [number, number];
  readonly purchasePicks: unknown;
  readonly actions: unknown[];
}

const byPlayer = (action: unknown): VectorAction => ({ by: 'player', action });
const SERVER: VectorAction = { by: 'server', action: SERVER_COMPLETE };
const allEvents = (play: VectorPlay): Events => play.steps.flatMap((s) => s.events) as Events;

/** The player's actions as logged: parsed, and cut where the reveal ends. */
function logged(game: GameId, stake: Cents, tierId: number, seed: string, purchasePicks: unknown, unit: number, raw: unknown[], serverCompletes: boolean): VectorAction[] {
  const rules = rulesOf(game);
  const actions: VectorAction[] = [];
  const finished = () => isFinished(game, stake, tierId, seed, purchasePicks, unit, actions);
  for (const input of raw) {
    if (finished()) return actions;
    const parsed = rules.parseAction(input);
    if (!parsed.ok) throw new Error(`${game}: case action refused: ${parsed.code}`);
    actions.push(byPlayer(parsed.value));
  }
  if (serverCompletes && !finished()) actions.push(SERVER);
  return actions;
}

function isFinished(game: GameId, stake: Cents, tierId: number, unitSeed: string, purchasePicks: unknown, unit: number, actions: VectorAction[]): boolean {
  try {
    playVector({ game, stake, tierId, unitSeed, purchasePicks, unit, actions });
    return true;
  } catch (error) {
    if ((error as Error).message.startsWith('the unit is not finished')) return false;
    throw error;
  }
}

function vectorsOf(game: GameId, cases: readonly Case[], pairs: readonly PairCase[] = []): TestVector[] {
  const used = new Set<number>();
  const out: TestVector[] = [];
  const seedAt = (p: number) => toHex(unitSeed(BLOCK_SEED, p));
  for (const c of cases) {
    let found = false;
    for (let p = 0; p < MAX_POSITION && !found; p++) {
      if (used.has(p)) continue;
      const seed = seedAt(p);
      const rng = new Rng(unitSeed(BLOCK_SEED, p), nonceFor('vector-acts'));
      const choose = (n: number) => rng.below(n);
      const purchasePicks = c.purchasePicks?.(choose) ?? null;
      const actions = logged(game, c.stake, c.tierId, seed, purchasePicks, 0, c.actions(choose), c.serverCompletes ?? false);
      const deal = { game, stake: c.stake, tierId: c.tierId, unitSeed: seed, purchasePicks, unit: 0, actions };
      const play = playVector(deal);
      if (c.covers && !c.covers(play, allEvents(play))) continue;
      used.add(p);
      out.push({ case: c.name, position: p, ...deal, ...play });
      found = true;
    }
    if (!found) throw new Error(`${game}: no unit for "${c.name}" in the first ${MAX_POSITION} positions`);
  }
  for (const pair of pairs) {
    let p = 0;
    while (used.has(p) || used.has(p + 1)) p++;
    for (const unit of [0, 1]) {
      const deal = {
        game,
        stake: pair.stake,
        tierId: pair.tierIds[unit]!,
        unitSeed: seedAt(p + unit),
        purchasePicks: pair.purchasePicks,
        unit,
        actions: pair.actions.map(byPlayer),
      };
      used.add(p + unit);
      out.push({ case: `${pair.name}, unit ${unit}`, position: p + unit, ...deal, ...playVector(deal) });
    }
  }
  return out;
}

// ------------------------------------------------------------------ the cases, game by game

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const shuffled = <T>(list: readonly T[], choose: (n: number) => number): T[] => {
  const out = list.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = choose(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};

function rainCases(): Case[] {
  const stake = 50;
  const opens = (choose: (n: number) => number) => shuffled(range(5), choose).map((box) => ({ type: 'open', box }));
  const tierName = (t: number) => (t === 0 ? 'a loss' : `a win of ${RAIN_COLOURS[t - 1]}`);
  const collected = (events: Events) => events.filter((e) => e.type === 'gems_collected') as unknown as { colour: string; cells: unknown[]; total: number }[];
  return [
    ...range(8).map((t) => ({ name: `${tierName(t)}, boxes opened one by one`, stake, tierId: t, actions: opens })),
    ...range(8).map((t) => ({ name: `${tierName(t)}, AUTO`, stake, tierId: t, actions: () => [{ type: 'auto' }] })),
    {
      name: 'a box that collects nothing (no fall, no entry)',
      stake,
      tierId: 0,
      actions: opens,
      covers: (_, events) => collected(events).some((e) => e.cells.length === 0),
    },
    {
      name: 'a red win collected over three boxes or more',
      stake,
      tierId: 3,
      actions: opens,
      covers: (_, events) => collected(events).filter((e) => e.colour === 'red' && e.cells.length > 0).length >= 3,
    },
    {
      name: 'a loss showing 5 gems of one colour',
      stake,
      tierId: 0,
      actions: opens,
      covers: (_, events) => collected(events).some((e) => e.total === 5),
    },
    {
      name: 'a box emptying three cells of one column (three gems enter it)',
      stake,
      tierId: 6,
      actions: opens,
      covers: (_, events) =>
        events.some((e) => e.type === 'gems_entered' && range(5).some((col) => (e.cells as { col: number }[]).filter((c) => c.col === col).length >= 3)),
    },
    {
      name: 'the server finishes after two boxes',
      stake,
      tierId: 7,
      actions: (choose) => opens(choose).slice(0, 2),
      serverCompletes: true,
    },
  ];
}

function caratsCases(): Case[] {
  const stake = 500;
  const oneByOne = (choose: (n: number) => number) => [{ type: 'reveal_winning' }, ...shuffled(range(24), choose).map((index) => ({ type: 'reveal', index }))];
  const matches = (play: VectorPlay) => (play.steps.flatMap((s) => s.events) as { type: string; matched?: boolean }[]).filter((e) => e.matched).length;
  const PRIZE_OF = ['a loss', '500,000 €', '10,000 €', '1,000 €', '100 €', '50 €', '15 €', '10 €', '5 €'];
  return [
    ...range(9).map((t) => ({ name: `${PRIZE_OF[t]}, numbers revealed one by one`, stake, tierId: t, actions: oneByOne })),
    { name: 'a loss, AUTO', stake, tierId: 0, actions: () => [{ type: 'auto' }] },
    { name: '5 €, AUTO', stake, tierId: 8, actions: () => [{ type: 'auto' }] },
    ...[1, 2, 5, 6].map((n) => ({ name: `100 € as ${n} match${n > 1 ? 'es' : ''}`, stake, tierId: 4, actions: oneByOne, covers: (play: VectorPlay) => matches(play) === n })),
    { name: '50 € as 6 matches', stake, tierId: 5, actions: oneByOne, covers: (play) => matches(play) === 6 },
    { name: '15 € as 5 + 5 + 5', stake, tierId: 6, actions: oneByOne, covers: (play) => matches(play) === 3 },
    { name: 'a loss showing 500,000 € under a number', stake, tierId: 0, actions: oneByOne, covers: (play) => (play.scenario as { amounts: number[] }).amounts.includes(50_000_000) },
    {
      name: '10 €, a drag over twelve numbers, two single reveals, then AUTO',
      stake,
      tierId: 7,
      actions: (choose) => {
        const order = shuffled(range(24), choose);
        return [{ type: 'reveal_winning' }, { type: 'reveal_many', indexes: order.slice(0, 12) }, { type: 'reveal', index: order[12] }, { type: 'reveal', index: order[13] }, { type: 'auto' }];
      },
    },
    { name: 'the server finishes before the winning numbers', stake, tierId: 8, actions: () => [], serverCompletes: true },
    {
      name: 'the server finishes after a drag',
      stake,
      tierId: 0,
      actions: (choose) => [{ type: 'reveal_winning' }, { type: 'reveal_many', indexes: shuffled(range(24), choose).slice(0, 5) }],
      serverCompletes: true,
    },
  ];
}

function noelCases(): Case[] {
  const cases: Case[] = [];
  [50, 100, 200].forEach((stake, s) => {
    for (let t = 0; t <= 7; t++) {
      const symbol = GAME_SYMBOLS[(t + s) % 3]!;
      cases.push({ name: `${t === 0 ? 'a loss' : `tier ${t}`} at ${stake} cents, ${symbol} picked`, stake, tierId: t, actions: () => [{ type: 'pick', symbol }] });
    }
    cases.push({ name: `the server picks for the player at ${stake} cents (tier ${2 * s + 1})`, stake, tierId: 2 * s + 1, actions: () => [], serverCompletes: true });
  });
  return cases;
}

function mineCases(): Case[] {
  const extras = () => range(4).map(() => ({ type: 'extra' }));
  const auto = () => [{ type: 'auto' }];
  const grids = (events: Events) => events.filter((e) => e.type === 'grid_revealed') as unknown as { stage: number; combinations: { aligned: boolean }[] }[];
  const cases: Case[] = [];
  for (const stake of [50, 100, 200]) {
    for (let t = 0; t <= 12; t++) {
      cases.push({ name: `${t === 0 ? 'a loss' : `tier ${t}`} at ${stake} cents, ${t % 2 ? 'AUTO' : 'EXTRA while stages are left'}`, stake, tierId: t, actions: t % 2 ? auto : extras });
    }
  }
  for (let k = 1; k <= 4; k++) {
    cases.push({ name: `${k} Extra stage${k > 1 ? 's' : ''}, EXTRA pressed`, stake: 50, tierId: k === 4 ? 0 : 11, actions: extras, covers: (_, e) => grids(e).length === k + 1 });
  }
  cases.push(
    { name: 'a combination in an Extra stage', stake: 100, tierId: 8, actions: extras, covers: (_, e) => grids(e).some((g) => g.stage > 0 && g.combinations.length > 0) },
    { name: 'two combinations in one grid', stake: 50, tierId: 9, actions: extras, covers: (_, e) => grids(e).some((g) => g.combinations.length >= 2) },
    { name: 'an aligned (doubled) combination', stake: 200, tierId: 10, actions: extras, covers: (_, e) => grids(e).some((g) => g.combinations.some((c) => c.aligned)) },
    { name: 'the server finishes after one EXTRA', stake: 50, tierId: 12, actions: () => [{ type: 'extra' }], serverCompletes: true, covers: (_, e) => grids(e).length >= 3 },
  );
  return cases;
}

function lampCases(): { cases: Case[]; pairs: PairCase[] } {
  const stake = 50;
  const rubs = (choose: (n: number) => number) => {
    const pattern = choose(3);
    if (pattern === 0) return [{ type: 'auto' }];
    if (pattern === 1) return [25, 50, 75, 100].map((progress) => ({ type: 'rub', progress }));
    return [{ type: 'rub', progress: 1 + choose(99) }, { type: 'auto' }];
  };
  const colour = (choose: (n: number) => number) => [{ kind: 'colour', choice: LAMP_COLOURS[choose(4)] }];
  const symbol = (choose: (n: number) => number) => [{ kind: 'symbol', choice: LAMP_SYMBOLS[choose(4)] }];
  const cases: Case[] = [
    ...range(8).map((t) => ({ name: `"Votre couleur", ${t === 0 ? 'a loss' : `tier ${t}`}`, stake, tierId: t, purchasePicks: colour, actions: rubs })),
    ...range(8).map((t) => ({ name: `"Votre symbole", ${t === 0 ? 'a loss' : `tier ${t}`}`, stake, tierId: t, purchasePicks: symbol, actions: rubs })),
    { name: 'the server opens the lamp after a rub to 40 %', stake, tierId: 0, purchasePicks: symbol, actions: () => [{ type: 'rub', progress: 40 }], serverCompletes: true },
  ];
  const pairs: PairCase[] = [
    { name: 'a pair, both losing', stake, tierIds: [0, 0], purchasePicks: [{ kind: 'colour', choice: 'red' }, { kind: 'symbol', choice: 'moon' }], actions: [{ type: 'auto' }] },
    { name: 'a pair, the colour wins', stake, tierIds: [6, 0], purchasePicks: [{ kind: 'colour', choice: 'gold' }, { kind: 'symbol', choice: 'key' }], actions: [{ type: 'rub', progress: 50 }, { type: 'auto' }] },
    { name: 'a pair bought symbol first, the symbol wins', stake, tierIds: [4, 0], purchasePicks: [{ kind: 'symbol', choice: 'sun' }, { kind: 'colour', choice: 'blue' }], actions: [{ type: 'auto' }] },
  ];
  return { cases, pairs };
}

function vectorsFor(game: GameId): TestVector[] {
  switch (game) {
    case 'rain-diamonds':
      return vectorsOf(game, rainCases());
    case '500000-carats':
      return vectorsOf(game, caratsCases());
    case 'noel-de-la-chance':
      return vectorsOf(game, noelCases());
    case 'mine-d-or':
      return vectorsOf(game, mineCases());
    case 'mysteres-de-la-lampe': {
      const { cases, pairs } = lampCases();
      return vectorsOf(game, cases, pairs);
    }
  }
}

// ------------------------------------------------------------------ writing

/** The file's fields on their own lines, one vector per line: a diff shows which vectors moved. */
function format(file: VectorFile): string {
  const head = `{\n  "format": ${JSON.stringify(file.format)},\n  "game": ${JSON.stringify(file.game)},\n  "blockSeed": ${JSON.stringify(file.blockSeed)},\n`;
  return `${head}  "vectors": [\n${file.vectors.map((v) => `    ${JSON.stringify(v)}`).join(',\n')}\n  ]\n}\n`;
}

const outDir = new URL('../docs/games/vectors/', import.meta.url);
mkdirSync(outDir, { recursive: true });
for (const game of GAME_IDS) {
  const file: VectorFile = { format: VECTORS_FORMAT, game, blockSeed: toHex(BLOCK_SEED), vectors: vectorsFor(game) };
  writeFileSync(new URL(`${game}.json`, outDir), format(file));
  console.log(`docs/games/vectors/${game}.json: ${file.vectors.length} vectors`);
}
