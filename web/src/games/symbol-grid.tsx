import { Sym } from '../art';
import type { Strings } from '../i18n';

export interface SymbolCell {
  readonly symbol: string;
  readonly name: string;
  /** A cell of a winning line (`aligned`: in line, its gain doubled), or the chosen symbol. */
  readonly mark?: 'matched' | 'aligned';
}

/** A grid of symbols, read by screen readers as rows of named cells; a hidden cell is a covered tile. */
export function SymbolGrid({ s, label, cols, cells }: { s: Strings; label: string; cols: number; cells: readonly (SymbolCell | null)[] }) {
  const rows = Array.from({ length: Math.ceil(cells.length / cols) }, (_, r) => cells.slice(r * cols, (r + 1) * cols));
  return (
    <div class="symbol-grid" role="grid" aria-label={label} style={{ '--cols': String(cols) }}>
      {rows.map((row, r) => (
        <div role="row" key={r}>
          {row.map((cell, c) => (
            <span role="gridcell" key={c} class={`cell${cell ? ` shown sym-${cell.symbol}` : ''}${cell?.mark ? ` ${cell.mark}` : ''}`}>
              {cell ? <><Sym id={cell.symbol} /><span class="cell-name">{cell.name}</span></> : <span class="sr-only">{s.hiddenCell}</span>}
            </span>
          ))}
        </div>
      ))}
    </div>
  );
}
