import type { Room } from '@colyseus/core';
import { ArraySchema, Schema, type } from '@colyseus/schema';
import type { LiveUnit } from '../play/live-unit';
import { encodeStep } from '../games/step-codec';
import type { WatchedUnit } from '../feed/table-stream';
import { ClockTicker } from './clock-ticker';

/**
 * The rooms' clock tick for tables and watch rooms. Patches go out as steps happen, not on a
 * timer, so the clock only serves the rooms' own timers and Colyseus's flood limit: Colyseus would
 * otherwise tick it 60 times a second in every room (~10 % of a process at 2,000 tables).
 */
const CLOCK_TICK_MS = 250;
/** The process's one ticker of those clocks (./clock-ticker.ts). */
const TICKER = new ClockTicker(CLOCK_TICK_MS);

/**
 * A table's patch settings (the table room's, the watch room's, and the echo baseline's, which
 * mirrors them): no patch timer, each step's patch sent by the room when it is applied, and the
 * room's clock ticked every 250 ms with every other such room's, in one turn of the event loop.
 */
export function sendPatchesAsStepsHappen(room: Room): void {
  TICKER.add(room);
}

/**
 * What a table streams to its clients. Only revealed values ever enter it: each step is the
 * packed text of the events a reveal step produced (./step-codec.ts), and steps are appended, so
 * each patch carries just the new step. The balance is private and goes in the player's
 * replies, never through this state.
 */
export class UnitState extends Schema {
  @type('string') unitId = '';
  @type('uint32') stake = 0;
  /** 'in_progress' or 'finished'. */
  @type('string') status = 'in_progress';
  /** Set when the reveal ends, never before. */
  @type('uint32') prize = 0;
  /**
   * One text per step, its place its `seq`: who played it and its events, packed by
   * `encodeStep` (a fifth to a tenth of their JSON), read back with `decodeStep`. A string costs
   * the schema encoder about half what a schema object per step did (docs/performance.md).
   */
  @type(['string']) steps = new ArraySchema<string>();
}

export class TableState extends Schema {
  @type('string') game = '';
  /**
   * The game's entry of the catalog (`GET /games`) as JSON: set when the table is made, so it
   * comes with the state to whoever joins (player or watcher) and never in a patch again. (A
   * message sent on joining would reach a Node client before it can register a handler.)
   */
  @type('string') catalog = '';
  /** The units of the current purchase (two when both lamp units are played at once). */
  @type([UnitState]) units = new ArraySchema<UnitState>();
}

/** Steps a table put in front of its player at once, for the archive (docs/archive.md): one unit's, from step `seq` on. */
export interface ShownSteps {
  readonly unit: string;
  /** The `seq` of the first of `steps`. */
  readonly seq: number;
  /** Each step's wire text, as the state carries it (`encodeStep`). */
  readonly steps: string[];
}

/**
 * Brings the state up to `units` (the units of one purchase): a unit not shown yet takes the
 * place of the one shown there, with its steps so far; a shown one gets only the steps its client
 * has not seen, and its prize when its reveal has ended, never before. With `shown`, each unit's
 * new steps are added to it too.
 */
export function showUnits(state: TableState, units: readonly LiveUnit[], shown?: ShownSteps[]): void {
  units.forEach((unit, i) => {
    const view = placeOf(state, i, unit.sale.unitId, unit.sale.stake);
    const seq = view.steps.length;
    const texts = unit.steps.slice(seq).map(({ by, events }) => encodeStep(by, events));
    for (const text of texts) view.steps.push(text);
    if (shown && texts.length > 0) shown.push({ unit: unit.sale.unitId, seq, steps: texts });
    if (unit.finished) finish(view, unit.sale.prize);
  });
  while (state.units.length > units.length) state.units.pop();
}

/**
 * The units as a table's watchers are shown them (its stream's frames: src/feed/table-stream.ts).
 * With `seen` (a game covered on screen), each unit only up to the steps its player has seen
 * uncovered, in progress and without its prize until they have seen them all.
 */
export function watchedUnits(state: TableState, seen?: (unitId: string) => number): WatchedUnit[] {
  return state.units.map((u) => {
    const steps = [...u.steps];
    const shown = seen ? Math.min(seen(u.unitId), steps.length) : steps.length;
    if (shown === steps.length) return { unitId: u.unitId, stake: u.stake, status: u.status, prize: u.prize, steps };
    return { unitId: u.unitId, stake: u.stake, status: 'in_progress', prize: 0, steps: steps.slice(0, shown) };
  });
}

/** Brings a relay's state up to a frame of the table's stream, as `showUnits` does at the table. */
export function showWatchedUnits(state: TableState, units: readonly WatchedUnit[]): void {
  units.forEach((unit, i) => {
    const view = placeOf(state, i, unit.unitId, unit.stake);
    for (const step of unit.steps.slice(view.steps.length)) view.steps.push(step);
    if (unit.status === 'finished') finish(view, unit.prize);
  });
  while (state.units.length > units.length) state.units.pop();
}

/** The `i`th place of the state, showing the unit `unitId` (its steps so far kept when it already does). */
function placeOf(state: TableState, i: number, unitId: string, stake: number): UnitState {
  let view = state.units[i];
  if (!view) {
    view = new UnitState();
    state.units[i] = view;
  }
  // The place is reset rather than given a new schema object: making and attaching one per
  // purchase cost the encoder twice as much (docs/performance.md).
  if (view.unitId !== unitId) {
    view.unitId = unitId;
    view.stake = stake;
    view.status = 'in_progress';
    view.prize = 0;
    if (view.steps.length > 0) view.steps.clear();
  }
  return view;
}

function finish(view: UnitState, prize: number): void {
  if (view.status === 'finished') return;
  view.prize = prize;
  view.status = 'finished';
}
