import { useLayoutEffect, useRef } from 'preact/hooks';
import { Sym } from '../art';
import type { Strings } from '../i18n';
import { ScratchStroke, syncCovers } from './scratch-layer';

export interface SymbolCell {
  readonly symbol: string;
  readonly name: string;
  /** A cell of a winning line (`aligned`: in line, its gain doubled), or the chosen symbol. */
  readonly mark?: 'matched' | 'aligned';
}

/** Cells under silver: which ones (by index in this grid), and what to do when some are scratched. */
export interface GridCovers {
  readonly covered: (index: number) => boolean;
  readonly uncover: (indexes: number[]) => void;
}

/**
 * A grid of symbols, read by screen readers as rows of named cells; a hidden cell is a covered
 * tile. With `covers`, a covered cell is a button under the grid's silver canvas (scratch-layer.ts)
 * that clears under the finger or the mouse: scratched enough, tapped, or opened with Enter or Space,
 * it is uncovered. The symbol under the silver is the page's already (these games' grids come
 * whole from the server), so nothing is asked of the server and nothing animates.
 */
export function SymbolGrid({ s, label, cols, cells, covers }: { s: Strings; label: string; cols: number; cells: readonly (SymbolCell | null)[]; covers?: GridCovers | undefined }) {
  const stroke = useRef<ScratchStroke | null>(null);
  const silver = useRef<HTMLCanvasElement>(null);
  useLayoutEffect(() => {
    if (silver.current) syncCovers(silver.current);
  });
  const rows = Array.from({ length: Math.ceil(cells.length / cols) }, (_, r) => cells.slice(r * cols, (r + 1) * cols));
  const scratching = !!covers && cells.some((_, i) => covers.covered(i));
  const onDown = (ev: PointerEvent) => {
    if (scratching) stroke.current = new ScratchStroke(ev.currentTarget as HTMLElement, ev.clientX, ev.clientY, (indexes) => covers!.uncover(indexes));
  };
  const onUp = () => {
    const tap = stroke.current?.tapped();
    stroke.current = null;
    if (tap !== undefined) covers!.uncover([tap]);
  };
  return (
    <div class={`symbol-grid${scratching ? ' scratching' : ''}`} role="grid" aria-label={label} style={{ '--cols': String(cols) }}
      {...(scratching ? { onPointerDown: onDown, onPointerMove: (ev: PointerEvent) => stroke.current?.move(ev.clientX, ev.clientY), onPointerUp: onUp, onPointerCancel: () => (stroke.current = null) } : {})}>
      {rows.map((row, r) => (
        <div role="row" key={r}>
          {row.map((cell, c) => {
            const i = r * cols + c;
            if (covers?.covered(i)) {
              return (
                <span role="gridcell" key={c} class={`cell under-silver${cell ? ` shown sym-${cell.symbol}` : ''}`}>
                  {/* Keyboard activation (Enter, Space) has no pointer: detail is 0; a pointer's press is the stroke's. */}
                  <button type="button" data-index={i} class="cell-scratch" aria-label={s.scratchCell(i)} onClick={(ev) => (ev.detail === 0 ? covers.uncover([i]) : undefined)}>
                    {/* Under the silver, the symbol's picture only: its name comes with the cell (a button's name is its label). */}
                    {cell && <span class="cell-face" aria-hidden="true"><Sym id={cell.symbol} /></span>}
                  </button>
                </span>
              );
            }
            return (
              <span role="gridcell" key={c} class={`cell${cell ? ` shown sym-${cell.symbol}` : ''}${cell?.mark ? ` ${cell.mark}` : ''}`}>
                {cell ? <><Sym id={cell.symbol} /><span class="cell-name">{cell.name}</span></> : <span class="sr-only">{s.hiddenCell}</span>}
              </span>
            );
          })}
        </div>
      ))}
      {scratching && <canvas class="scratch-cover" ref={silver} aria-hidden="true" />}
    </div>
  );
}
