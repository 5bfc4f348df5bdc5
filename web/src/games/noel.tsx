import type { GameCatalogEntry } from '../../../src/protocol/catalog';
import type { GameEvent } from '../../../src/protocol/recall';
import { Sym } from '../art';
import type { Strings } from '../i18n';
import { SymbolGrid } from './symbol-grid';
import type { GameViewProps } from './types';

const GAME_SYMBOLS = ['star', 'bell', 'gift'];

export function describeNoel(e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'symbol_picked') return s.noel.picked(s.noel.symbols[e['symbol'] as string] ?? '');
  return undefined;
}

/** The three game symbols offered: from the opening step when it lists them, else the rules' three. */
function offered(events: readonly GameEvent[]): string[] {
  for (const e of events) {
    const list = e['symbols'] ?? e['offered'];
    if (Array.isArray(list) && list.every((x) => typeof x === 'string') && list.length === 3) return list as string[];
  }
  return GAME_SYMBOLS;
}

/** A loss: how many of the chosen symbol were found, and the fewest that pay. */
export function missingNoel(events: readonly GameEvent[], s: Strings, game: GameCatalogEntry | undefined): string | undefined {
  const picked = events.find((e) => e.type === 'symbol_picked')?.['symbol'] as string | undefined;
  const needed = Math.min(...(game?.paysByCount ?? []).map((row) => row.count));
  if (!picked || !Number.isFinite(needed)) return undefined;
  const found = events.filter((e) => e.type === 'cell_revealed' && e['symbol'] === picked).length;
  return s.noel.short(s.noel.symbols[picked] ?? picked, found, needed);
}

const CELLS = 18;

/** The cells that come under silver: the whole grid, once the symbol is picked. */
export function coverableNoel(events: readonly GameEvent[]): number[] {
  return events.some((e) => e.type === 'symbol_picked') ? Array.from({ length: CELLS }, (_, i) => i) : [];
}

/**
 * The player picks a game symbol; the 18 cells show, the chosen symbol's cells marked and
 * counted. Played by hand, the cells come under silver and are counted as they are scratched.
 */
export function Noel({ s, units, readOnly, act, scratch }: GameViewProps) {
  const unit = units[0];
  const events = unit?.events ?? [];
  const picked = events.find((e) => e.type === 'symbol_picked')?.['symbol'] as string | undefined;
  const grid: (string | null)[] = Array(CELLS).fill(null);
  for (const e of events) if (e.type === 'cell_revealed') grid[(e['row'] as number) * 6 + (e['col'] as number)] = e['symbol'] as string;
  const covered = (i: number) => !!scratch && !!picked && !scratch.uncovered.has(i);
  const matches = picked ? grid.filter((x, i) => x === picked && !covered(i)).length : 0;
  // While cells are under silver, the focus goes to the next one to scratch, then to this line.
  const stillCovered = grid.some((_, i) => covered(i));
  const name = (symbol: string) => s.noel.symbols[symbol] ?? symbol;
  return (
    <div class="noel">
      <div class="noel-head">{!picked ? (
        <fieldset class="choices">
          <legend>{s.noel.choose}</legend>
          {offered(events).map((symbol) => (
            <button type="button" class={`symbol-choice sym-${symbol}`} key={symbol} disabled={readOnly || !unit} onClick={() => act({ type: 'pick', symbol })}>
              <Sym id={symbol} /> {name(symbol)}
            </button>
          ))}
        </fieldset>
      ) : (
        <p class="label noel-picked" tabIndex={-1} {...(stillCovered ? {} : { 'data-focus-next': true })}><Sym id={picked} /> {s.noel.picked(name(picked))} — {s.noel.count(matches, name(picked))}</p>
      )}</div>
      <SymbolGrid s={s} label={s.noel.grid} cols={6} cells={grid.map((symbol) => (symbol ? { symbol, name: name(symbol), ...(symbol === picked ? { mark: 'matched' as const } : {}) } : null))}
        covers={scratch && picked ? { covered, uncover: scratch.uncover } : undefined} />
    </div>
  );
}
