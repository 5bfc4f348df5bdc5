import type { CaratsEvent } from './500000-carats/scenario';
import { SYMBOLS as MINE_SYMBOLS, type GridRevealedEvent, type MineSymbol, type WinningSymbol } from './mine-d-or/scenario';
import { COLOURS as LAMP_COLOURS, SYMBOLS as LAMP_SYMBOLS, type LampEvent } from './mysteres-de-la-lampe/scenario';
import { CELL_SYMBOLS, GAME_SYMBOLS, type NoelEvent } from './noel-de-la-chance/scenario';
import { COLOURS as RAIN_COLOURS, ROWS as RAIN_ROWS, type Cell, type Colour, type RainDiamondsEvent } from './rain-diamonds/scenario';
import type { FinishedEvent } from './types';

/**
 * The wire text of a reveal step on the table state (docs/server.md, "State"), written by the
 * server and read by the page and the tests (the load test only counts steps): pure, no
 * framework, so that the page can import it.
 * A step is a JSON array: who played it, then one array per event, `[code, ...fields]`, the
 * fields in a fixed order and each value out of a fixed list (a colour, a symbol) as its index
 * in that list (a run of them as a string of base-36 digits). Its place in `steps` is its `seq`.
 * The recall keeps the readable JSON: only the table's stream is packed, the event objects it
 * decodes to are the reducer's, field for field.
 */

/** Any event a game's reducer gives. */
export type StepEvent = RainDiamondsEvent | CaratsEvent | NoelEvent | GridRevealedEvent | LampEvent | FinishedEvent;

export type StepBy = 'purchase' | 'player' | 'server';

export interface DecodedStep {
  readonly by: StepBy;
  readonly events: StepEvent[];
}

const BY: readonly StepBy[] = ['purchase', 'player', 'server'];

/** An event's fields as packed: JSON values, read back in the order they were written. */
type Fields = readonly unknown[];

interface EventCodec {
  readonly type: StepEvent['type'];
  /** A fresh array each call: the encoder puts the code in front of it. */
  pack(event: StepEvent): unknown[];
  unpack(fields: Fields): StepEvent;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `values` as one base-36 digit each, their indexes in `list` (at most 36 values). */
function digits<T>(values: readonly T[], list: readonly T[]): string {
  // A loop over a string of digits: packing runs for every step the server sends.
  let text = '';
  for (const value of values) text += BASE36[indexIn(value, list)];
  return text;
}

function undigits<T>(text: string, list: readonly T[]): T[] {
  return [...text].map((d) => list[parseInt(d, 36)]!);
}

/** One value out of `list` as its index. */
function indexIn<T>(value: T, list: readonly T[]): number {
  const i = list.indexOf(value);
  if (i < 0) throw new RangeError(`step codec: ${String(value)} is not one of ${list.join(', ')}`);
  return i;
}

/** Small numbers (cells, rows, columns: 0–35), written as digits like the values of a list. */
const SMALL_NUMBERS = Array.from({ length: 36 }, (_, i) => i);
/** A grid position of RAIN DIAMONDS as one index (column-major, as the grid is). */
const cellIndex = (c: Cell) => c.col * RAIN_ROWS + c.row;
const cellAt = (i: number): Cell => ({ col: Math.floor(i / RAIN_ROWS), row: i % RAIN_ROWS });

/** The lamp's result is a colour or a symbol: one list for both. */
const LAMP_RESULTS = [...LAMP_COLOURS, ...LAMP_SYMBOLS];
const LAMP_KINDS = ['colour', 'symbol'] as const;

type Of<T extends StepEvent['type']> = Extract<StepEvent, { type: T }>;
/** The codec of event type `T`: its fields packed, and unpacked behind its `type` (the reducer's key order). */
function codec<T extends StepEvent['type']>(type: T, pack: (e: Of<T>) => unknown[], unpack: (f: Fields) => Omit<Of<T>, 'type'>): EventCodec {
  return { type, pack: (e) => pack(e as Of<T>), unpack: (f) => ({ type, ...unpack(f) }) as Of<T> };
}

const num = (v: unknown) => v as number;
const str = (v: unknown) => v as string;

/** Every event type; its index is its code on the wire (append only: codes must not move). */
const CODECS: readonly EventCodec[] = [
  codec('finished', (e) => [e.prize], (f) => ({ prize: num(f[0]) })),
  // RAIN DIAMONDS
  codec('grid_shown', (e) => [digits(e.grid.flat(), RAIN_COLOURS)], (f) => {
    const all = undigits<Colour>(str(f[0]), RAIN_COLOURS);
    return { grid: Array.from({ length: all.length / RAIN_ROWS }, (_, col) => all.slice(col * RAIN_ROWS, (col + 1) * RAIN_ROWS)) };
  }),
  codec('box_opened', (e) => [e.box, indexIn(e.colour, RAIN_COLOURS), e.order], (f) => ({
    box: num(f[0]),
    colour: RAIN_COLOURS[num(f[1])]!,
    order: num(f[2]),
  })),
  codec('gems_collected', (e) => [indexIn(e.colour, RAIN_COLOURS), digits(e.cells.map(cellIndex), SMALL_NUMBERS), e.total], (f) => ({
    colour: RAIN_COLOURS[num(f[0])]!,
    cells: undigits(str(f[1]), SMALL_NUMBERS).map(cellAt),
    total: num(f[2]),
  })),
  codec('gems_fell', (e) => [digits(e.moves.flatMap((m) => [m.col, m.fromRow, m.toRow]), SMALL_NUMBERS)], (f) => {
    const n = undigits(str(f[0]), SMALL_NUMBERS);
    return { moves: Array.from({ length: n.length / 3 }, (_, i) => ({ col: n[3 * i]!, fromRow: n[3 * i + 1]!, toRow: n[3 * i + 2]! })) };
  }),
  codec('gems_entered', (e) => [digits(e.cells.map(cellIndex), SMALL_NUMBERS), digits(e.cells.map((c) => c.colour), RAIN_COLOURS)], (f) => {
    const colours = undigits<Colour>(str(f[1]), RAIN_COLOURS);
    return { cells: undigits(str(f[0]), SMALL_NUMBERS).map((i, k) => ({ ...cellAt(i), colour: colours[k]! })) };
  }),
  // 500 000 CARATS
  codec('winning_numbers_revealed', (e) => [e.numbers], (f) => ({ numbers: (f[0] as number[]).slice() })),
  codec('number_revealed', (e) => [e.index, e.number, e.amount, e.matched ? 1 : 0], (f) => ({
    index: num(f[0]),
    number: num(f[1]),
    amount: num(f[2]),
    matched: f[3] === 1,
  })),
  // LE NOËL DE LA CHANCE
  codec('symbols_offered', (e) => [digits(e.symbols, GAME_SYMBOLS)], (f) => ({ symbols: undigits(str(f[0]), GAME_SYMBOLS) })),
  codec('symbol_picked', (e) => [indexIn(e.symbol, GAME_SYMBOLS)], (f) => ({ symbol: GAME_SYMBOLS[num(f[0])]! })),
  codec('cell_revealed', (e) => [e.row, e.col, indexIn(e.symbol, CELL_SYMBOLS)], (f) => ({
    row: num(f[0]),
    col: num(f[1]),
    symbol: CELL_SYMBOLS[num(f[2])]!,
  })),
  // MINE D'OR
  codec(
    'grid_revealed',
    (e) => [e.stage, digits(e.symbols, MINE_SYMBOLS), e.combinations.map((c) => [indexIn(c.symbol, MINE_SYMBOLS), digits(c.cells, SMALL_NUMBERS), c.aligned ? 1 : 0, c.gain]), e.gain, e.extrasEarned, e.extrasPending],
    (f) => ({
      stage: num(f[0]),
      symbols: undigits<MineSymbol>(str(f[1]), MINE_SYMBOLS),
      combinations: (f[2] as Fields[]).map((c) => ({
        symbol: MINE_SYMBOLS[num(c[0])]! as WinningSymbol,
        cells: undigits(str(c[1]), SMALL_NUMBERS),
        aligned: c[2] === 1,
        gain: num(c[3]),
      })),
      gain: num(f[3]),
      extrasEarned: num(f[4]),
      extrasPending: num(f[5]),
    }),
  ),
  // MYSTÈRES DE LA LAMPE
  codec('potential_gain_shown', (e) => [indexIn(e.pick.kind, LAMP_KINDS), indexIn(e.pick.choice, LAMP_RESULTS), e.amount], (f) => ({
    pick: { kind: LAMP_KINDS[num(f[0])]!, choice: LAMP_RESULTS[num(f[1])]! } as Of<'potential_gain_shown'>['pick'],
    amount: num(f[2]),
  })),
  codec('rub_progress', (e) => [e.progress], (f) => ({ progress: num(f[0]) })),
  codec('lamp_opened', (e) => [indexIn(e.result, LAMP_RESULTS)], (f) => ({ result: LAMP_RESULTS[num(f[0])]! })),
];

const CODE_OF = new Map(CODECS.map((c, code) => [c.type as string, code]));

/** A step as its wire text: `[by, [code, ...fields], …]` (`by`: 0 purchase, 1 player, 2 server). */
export function encodeStep(by: StepBy, events: readonly { readonly type: string }[]): string {
  const packed: unknown[] = [BY.indexOf(by)];
  for (const event of events) {
    const code = CODE_OF.get(event.type);
    if (code === undefined) throw new RangeError(`step codec: no code for event type ${event.type}`);
    const fields = CODECS[code]!.pack(event as StepEvent);
    fields.unshift(code);
    packed.push(fields);
  }
  return JSON.stringify(packed);
}

/** The step a wire text holds: who played it and its events, as the reducer gave them. */
export function decodeStep(text: string): DecodedStep {
  const [by, ...events] = JSON.parse(text) as [number, ...[number, ...Fields][]];
  return { by: BY[by]!, events: events.map(([code, ...fields]) => CODECS[code]!.unpack(fields)) };
}
