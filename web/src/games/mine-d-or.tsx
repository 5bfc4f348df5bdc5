import { useEffect, useRef } from 'preact/hooks';
import type { GameCatalogEntry } from '../../../src/protocol/catalog';
import type { GameEvent } from '../../../src/protocol/recall';
import { Sym } from '../art';
import { euros, type Strings } from '../i18n';
import { SymbolGrid } from './symbol-grid';
import type { GameViewProps } from './types';

interface Combination {
  symbol: string;
  cells: number[];
  aligned: boolean;
  gain: number;
}

export function describeMine(e: GameEvent, s: Strings): string | undefined {
  if (e.type !== 'grid_revealed') return undefined;
  const stage = e['stage'] as number;
  return `${stage === 0 ? s.mine.main : s.mine.stage(stage)} — ${s.mine.gridGain(euros(e['gain'] as number, s))}`;
}

/** A loss: no grid had the identical symbols that pay. */
export function missingMine(_events: readonly GameEvent[], s: Strings, game: GameCatalogEntry | undefined): string | undefined {
  const count = game?.symbols?.find((x) => x.worth)?.worth?.count;
  return count ? s.mine.noCombination(count) : undefined;
}

/** A grid's nine cells under silver: grid `stage`'s cell `i` is key `stage × 9 + i`. */
const CELLS = 9;

/** The cells that come under silver: every grid shown. */
export function coverableMine(events: readonly GameEvent[]): number[] {
  return events.filter((e) => e.type === 'grid_revealed').flatMap((e) => Array.from({ length: CELLS }, (_, i) => (e['stage'] as number) * CELLS + i));
}

/**
 * The main grid, then each Extra stage beside it; a winning line is marked, an aligned one
 * doubled. Played by hand, a grid comes under silver: its lines, its gain and EXTRA show once
 * all its cells are scratched.
 */
export function MineDOr({ s, units, readOnly, act, scratch }: GameViewProps) {
  const unit = units[0];
  const grids = unit?.events.filter((e) => e.type === 'grid_revealed') ?? [];
  const last = grids[grids.length - 1];
  const pending = last ? (last['extrasPending'] as number) : 0;
  const over = !unit || unit.events.some((e) => e.type === 'finished');
  const name = (symbol: string) => s.mine.symbols[symbol] ?? symbol;
  const covered = (stage: number, i: number) => !!scratch && !scratch.uncovered.has(stage * CELLS + i);
  const whole = (stage: number) => Array.from({ length: CELLS }, (_, i) => i).every((i) => !covered(stage, i));
  const row = useRef<HTMLDivElement>(null);
  // A new Extra grid comes into view in its row, the page itself does not scroll.
  useEffect(() => {
    if (row.current) row.current.scrollLeft = row.current.scrollWidth;
  }, [grids.length]);
  return (
    <div class="mine">
      <div class="mine-stages" ref={row} role="group" aria-label={s.mine.grids} tabIndex={0}>
        {grids.length === 0 && (
          <section class="mine-stage">
            <h3>{s.mine.main}</h3>
            <SymbolGrid s={s} label={s.mine.main} cols={3} cells={Array(9).fill(null)} />
          </section>
        )}
        {grids.map((g) => {
          const stage = g['stage'] as number;
          const title = stage === 0 ? s.mine.main : s.mine.stage(stage);
          const combos = g['combinations'] as Combination[];
          const inCombo = new Map<number, Combination>();
          for (const c of combos) for (const cell of c.cells) inCombo.set(cell, c);
          const shown = whole(stage);
          const cells = (g['symbols'] as string[]).map((symbol, i) => {
            const combo = shown ? inCombo.get(i) : undefined;
            return { symbol, name: name(symbol), mark: combo ? (combo.aligned ? 'aligned' as const : 'matched' as const) : undefined };
          });
          const covers = scratch && !shown ? { covered: (i: number) => covered(stage, i), uncover: (indexes: number[]) => scratch.uncover(indexes.map((i) => stage * CELLS + i)) } : undefined;
          return (
            <section class="mine-stage" key={stage}>
              <h3>{title}</h3>
              <SymbolGrid s={s} label={title} cols={3} cells={cells} covers={covers} />
              {shown ? <>
                <ul class="combos">
                  {combos.map((c) => <li key={c.symbol} class={c.aligned ? 'aligned' : ''}><Sym id={c.symbol} /> {s.mine.combination(name(c.symbol), euros(c.gain, s), c.aligned)}</li>)}
                </ul>
                <p class="grid-gain">{s.mine.gridGain(euros(g['gain'] as number, s))}</p>
              </> : <p class="hint">{s.scratchHint}</p>}
            </section>
          );
        })}
      </div>
      <p class="mine-extra">
        {!over && pending > 0 && (!last || whole(last['stage'] as number)) && <>
          <span>{s.mine.extrasPending(pending)}</span>{' '}
          <button type="button" class="primary" disabled={readOnly} onClick={() => act({ type: 'extra' })}>{s.mine.extra}</button>
        </>}
      </p>
    </div>
  );
}
