import type { Room } from './api';
import { decodeStep } from '../../src/games/step-codec';
import type { GameEvent } from '../../src/protocol/recall';
import type { ActReply, TableRequests, TableRequestType } from '../../src/protocol/table';

/** A unit as the table's state shows it, its steps' events decoded. */
export interface UnitView {
  readonly unitId: string;
  readonly stake: number;
  readonly status: string;
  readonly prize: number;
  /** Every event revealed so far, in order (the steps flattened). */
  readonly events: readonly GameEvent[];
  /** How many steps the server has shown (what `uncovered` counts). */
  readonly steps: number;
}

interface RawUnit {
  unitId: string;
  stake: number;
  status: string;
  prize: number;
  /** Each step's wire text (`decodeStep`). */
  steps: Iterable<string>;
}

/** The units of a table's state; each step decoded once. */
export function unitsOf(room: Room): UnitView[] {
  const state = room.state as { units?: Iterable<RawUnit> } | undefined;
  if (!state?.units) return [];
  return [...state.units].map((u) => {
    const steps = [...u.steps];
    return { unitId: u.unitId, stake: u.stake, status: u.status, prize: u.prize, events: steps.flatMap((s) => eventsOf(s)), steps: steps.length };
  });
}

/** Follows a table's units: `onUnits` now and on every state patch. */
export function followUnits(room: Room, onUnits: (units: UnitView[]) => void): void {
  onUnits(unitsOf(room));
  room.onStateChange(() => onUnits(unitsOf(room)));
}

const parsedCache = new Map<string, GameEvent[]>();
function eventsOf(step: string): GameEvent[] {
  let events = parsedCache.get(step);
  if (!events) {
    events = decodeStep(step).events as GameEvent[];
    if (parsedCache.size > 500) parsedCache.clear();
    parsedCache.set(step, events);
  }
  return events;
}

/** Fewest milliseconds between two messages this page sends: 16 a second, far under the server's flood limit (50). */
export const MIN_GAP_MS = 60;

/**
 * Everything the page sends to its table goes through here, one request at a time and at
 * least MIN_GAP_MS apart, so no amount of fast clicking reaches the flood limit. A rub waiting
 * to be sent takes the newest progress instead of queueing another (coalescing).
 */
export class Sender {
  private chain: Promise<unknown> = Promise.resolve();
  private lastSentAt = 0;
  private pendingRub: { progress: number } | undefined;
  /** The furthest rub sent or waiting for this purchase: a rub no further is not sent (the server refuses it, and one past 100 % finds the unit over). */
  private rubbedTo = 0;

  constructor(private readonly room: Room) {}

  request<K extends TableRequestType>(type: K, message: TableRequests[K]['request']): Promise<TableRequests[K]['reply']> {
    if (type === 'buy') this.rubbedTo = 0;
    return this.requestLazy(type, () => message);
  }

  /** Rubs the lamp to `progress` %: one `act` for every unit on the table (both lamp units). */
  rub(progress: number): Promise<ActReply> | undefined {
    if (progress <= this.rubbedTo) return undefined;
    this.rubbedTo = progress;
    if (this.pendingRub) {
      this.pendingRub.progress = Math.max(this.pendingRub.progress, progress);
      return undefined;
    }
    const rub = { progress };
    this.pendingRub = rub;
    const run = () => {
      this.pendingRub = undefined;
      return { action: { type: 'rub', progress: rub.progress } };
    };
    return this.requestLazy('act', run);
  }

  /** Like `request`, but the payload is made when its turn comes. */
  private requestLazy<K extends TableRequestType>(type: K, message: () => TableRequests[K]['request']): Promise<TableRequests[K]['reply']> {
    const run = async (): Promise<TableRequests[K]['reply']> => {
      const wait = this.lastSentAt + MIN_GAP_MS - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      this.lastSentAt = performance.now();
      return (await this.room.request(type, message())) as TableRequests[K]['reply'];
    };
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
