import type { Outcome, Parsed, Refusal, Step } from '../types';
import { isRecord, refuse } from '../types';
import { generate } from './generator';
import {
  BOXES,
  COLOURS,
  COLUMNS,
  ROWS,
  type BoxOpenedEvent,
  type Cell,
  type Colour,
  type GemsCollectedEvent,
  type GemsEnteredEvent,
  type GemsFellEvent,
  type RainDiamondsAction,
  type RainDiamondsEvent,
  type RainDiamondsPicks,
  type RainDiamondsState,
} from './scenario';

type Result = Step<RainDiamondsState, RainDiamondsEvent>;

const NO_COLLECTION = Object.fromEntries(COLOURS.map((c) => [c, 0])) as Record<Colour, number>;

/** `{ type: 'open', box }` with an integer box (range checked by `reduce`), or `{ type: 'auto' }`. */
export function parseAction(input: unknown): Parsed<RainDiamondsAction> {
  if (!isRecord(input)) return refuse('action/malformed', 'an action is an object with a type');
  const { type, box } = input;
  if (type === 'auto') return { ok: true, value: { type: 'auto' } };
  if (type === 'open') {
    if (typeof box !== 'number' || !Number.isInteger(box)) {
      return refuse('action/malformed', 'open needs a whole box number');
    }
    return { ok: true, value: { type: 'open', box } };
  }
  return refuse('action/malformed', "the action type must be 'open' or 'auto'");
}

/** The reveal right after purchase: the whole grid is shown, the 5 boxes are closed. */
export function start(outcome: Outcome, seed: Uint8Array, _picks: RainDiamondsPicks): Result {
  const scenario = generate(outcome, seed);
  const state: RainDiamondsState = {
    prize: outcome.prize,
    scenario,
    grid: scenario.grid,
    queueUsed: new Array<number>(COLUMNS).fill(0),
    boxes: new Array<Colour | null>(BOXES).fill(null),
    openOrder: [],
    collected: NO_COLLECTION,
    finished: false,
  };
  return { ok: true, state, events: [{ type: 'grid_shown', grid: scenario.grid }] };
}

/**
 * Opens box position `box` (known to be closed): it shows the scenario's next colour, whichever
 * position was clicked. Its gems are collected, the rest fall, the queues refill the columns.
 */
function openBox(state: RainDiamondsState, box: number): Result {
  const order = state.openOrder.length;
  const colour = state.scenario.boxes[order]!;
  const total = state.collected[colour] + countOf(state.grid, colour);
  const collectedCells: Cell[] = [];
  const moves: { col: number; fromRow: number; toRow: number }[] = [];
  const entered: (Cell & { colour: Colour })[] = [];
  const grid: Colour[][] = [];
  const queueUsed = state.queueUsed.slice();
  for (let col = 0; col < COLUMNS; col++) {
    const column = state.grid[col]!;
    const next = new Array<Colour>(ROWS);
    let to = ROWS - 1;
    for (let from = ROWS - 1; from >= 0; from--) {
      const gem = column[from]!;
      if (gem === colour) continue;
      if (to !== from) moves.push({ col, fromRow: from, toRow: to });
      next[to--] = gem;
    }
    const queue = state.scenario.queues[col]!;
    for (; to >= 0; to--) {
      const gem = queue[queueUsed[col]!];
      if (gem === undefined) throw new Error(`rain-diamonds: queue ${col} ran dry`);
      queueUsed[col]!++;
      next[to] = gem;
      entered.push({ col, row: to, colour: gem });
    }
    for (let row = 0; row < ROWS; row++) if (column[row] === colour) collectedCells.push({ col, row });
    grid.push(next);
  }
  const boxes = state.boxes.slice();
  boxes[box] = colour;
  const finished = order + 1 === BOXES;
  const next: RainDiamondsState = {
    ...state,
    grid,
    queueUsed,
    boxes,
    openOrder: [...state.openOrder, box],
    collected: { ...state.collected, [colour]: total },
    finished,
  };
  const events: RainDiamondsEvent[] = [
    { type: 'box_opened', box, colour, order: order + 1 } satisfies BoxOpenedEvent,
    { type: 'gems_collected', colour, cells: collectedCells, total } satisfies GemsCollectedEvent,
  ];
  if (moves.length > 0) events.push({ type: 'gems_fell', moves } satisfies GemsFellEvent);
  if (entered.length > 0) events.push({ type: 'gems_entered', cells: entered } satisfies GemsEnteredEvent);
  if (finished) events.push({ type: 'finished', prize: state.prize });
  return { ok: true, state: next, events };
}

function countOf(grid: readonly (readonly Colour[])[], colour: Colour): number {
  let n = 0;
  for (const column of grid) for (const gem of column) if (gem === colour) n++;
  return n;
}

/** Opens every closed box, left to right: the same events as opening them one by one. */
function openAll(state: RainDiamondsState): Result {
  let current = state;
  const events: RainDiamondsEvent[] = [];
  for (let box = 0; box < BOXES && !current.finished; box++) {
    if (current.boxes[box] !== null) continue;
    const step = openBox(current, box);
    current = step.state;
    events.push(...step.events);
  }
  return { ok: true, state: current, events };
}

export function reduce(state: RainDiamondsState, action: RainDiamondsAction): Result | Refusal {
  if (state.finished) return refuse('action/finished', 'all five boxes are open');
  switch (action.type) {
    case 'auto':
      return openAll(state);
    case 'open': {
      const { box } = action;
      if (!Number.isInteger(box) || box < 0 || box >= BOXES) {
        return refuse('action/out_of_range', `box must be 0 to ${BOXES - 1}`);
      }
      if (state.boxes[box] !== null) return refuse('action/already_revealed', `box ${box} is already open`);
      return openBox(state, box);
    }
    default:
      return refuse('action/malformed', 'unknown action');
  }
}

/** Finishes on the player's behalf: AUTO's events; none once finished. */
export function complete(state: RainDiamondsState): Result {
  return state.finished ? { ok: true, state, events: [] } : openAll(state);
}

export function isFinished(state: RainDiamondsState): boolean {
  return state.finished;
}
