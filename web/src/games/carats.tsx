import { useLayoutEffect, useRef } from 'preact/hooks';
import type { GameEvent } from '../../../src/protocol/recall';
import { euros, type Strings } from '../i18n';
import { ScratchStroke, syncCovers } from './scratch-layer';
import type { GameViewProps } from './types';

const NUMBERS = 24;
const PER_ROW = 6;
const WINNING = 6;

interface Revealed {
  number: number;
  amount: number;
  matched: boolean;
}

export function describeCarats(e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'winning_numbers_revealed') return `${s.carats.winning}${s.colon}${(e['numbers'] as number[]).join(', ')}`;
  if (e.type === 'number_revealed') return s.carats.revealed(e['number'] as number, euros(e['amount'] as number, s), e['matched'] as boolean);
  return undefined;
}

/** A loss: none of the player's numbers is among the winning ones. */
export function missingCarats(_events: readonly GameEvent[], s: Strings): string {
  return s.carats.noMatch;
}

/**
 * A scratch card: « Numéros gagnants » on top, « Vos numéros » under a silver layer that clears
 * under the finger or the mouse; a cell scratched enough is revealed (the cells a stroke passes
 * together in one `reveal_many`), a tap or Enter reveals one at once; a vertical swipe scrolls
 * the page (the grid only takes horizontal gestures).
 */
export function Carats({ s, units, readOnly, act }: GameViewProps) {
  const unit = units[0];
  const stroke = useRef<ScratchStroke | null>(null);
  // Cells asked for and not answered yet: never asked twice.
  const asked = useRef(new Set<number>());
  const silver = useRef<HTMLCanvasElement>(null);
  useLayoutEffect(() => {
    if (silver.current) syncCovers(silver.current);
  });
  let winning: number[] | null = null;
  const numbers: (Revealed | null)[] = Array(NUMBERS).fill(null);
  for (const e of unit?.events ?? []) {
    if (e.type === 'winning_numbers_revealed') winning = e['numbers'] as number[];
    if (e.type === 'number_revealed') numbers[e['index'] as number] = { number: e['number'] as number, amount: e['amount'] as number, matched: e['matched'] as boolean };
  }
  const over = !unit || unit.events.some((e) => e.type === 'finished');
  const canScratch = !readOnly && !over && winning !== null;
  const hits = new Set(numbers.filter((n) => n?.matched).map((n) => n!.number));

  const reveal = (indexes: number[]) => {
    const fresh = indexes.filter((i) => numbers[i] === null && !asked.current.has(i));
    for (const i of fresh) asked.current.add(i);
    if (fresh.length > 0) act(fresh.length === 1 ? { type: 'reveal', index: fresh[0] } : { type: 'reveal_many', indexes: fresh });
  };
  // The silver clears under the pointer; a cell scratched enough is asked of the server then.
  const onDown = (ev: PointerEvent) => {
    if (!canScratch) return;
    stroke.current = new ScratchStroke(ev.currentTarget as HTMLElement, ev.clientX, ev.clientY, reveal);
  };
  const onMove = (ev: PointerEvent) => stroke.current?.move(ev.clientX, ev.clientY);
  const onUp = () => {
    const tap = stroke.current?.tapped();
    stroke.current = null;
    if (tap !== undefined) reveal([tap]);
  };

  const rows = Array.from({ length: NUMBERS / PER_ROW }, (_, r) => numbers.slice(r * PER_ROW, (r + 1) * PER_ROW));
  return (
    <div class="carats">
      <h3 class="label" id="carats-winning">{s.carats.winning}</h3>
      <div class="winning" {...(winning || readOnly || over ? { role: 'list', 'aria-labelledby': 'carats-winning' } : {})}>
        {winning
          ? winning.map((n) => <span role="listitem" class={`ball${hits.has(n) ? ' hit' : ''}`} key={n}>{n}{hits.has(n) && <span class="sr-only">, {s.carats.match}</span>}</span>)
          : readOnly || over
            ? Array.from({ length: WINNING }, (_, i) => <span role="listitem" class="ball ball-hidden" key={i}><span class="sr-only">{s.hiddenCell}</span></span>)
            : <button type="button" class="primary reveal-winning" onClick={() => act({ type: 'reveal_winning' })}>{s.carats.revealWinning}</button>}
      </div>
      <h3 class="label" id="carats-yours">{s.carats.yours}</h3>
      <p class="hint">{canScratch ? s.carats.dragHint : '\u00a0'}</p>
      <div class="carats-grid" role="grid" aria-labelledby="carats-yours" onPointerDown={onDown} onPointerMove={onMove} onPointerUp={onUp} onPointerCancel={() => (stroke.current = null)}>
        {rows.map((row, r) => (
          <div role="row" class="carats-row" key={r}>
            {row.map((n, c) => {
              const i = r * PER_ROW + c;
              if (n) {
                return (
                  <span role="gridcell" key={i} class={`scratch scratched${n.matched ? ' matched' : ''}`}>
                    <b>{n.number}</b><small>{euros(n.amount, s)}</small>
                    {n.matched && <span class="sr-only">, {s.carats.match}</span>}
                  </span>
                );
              }
              return (
                <span role="gridcell" key={i} class="scratch-cell">
                  {canScratch
                    // Keyboard activation (Enter, Space) has no pointer: detail is 0.
                    ? <button type="button" data-index={i} class="scratch" aria-label={s.carats.cell(i)} onClick={(ev) => (ev.detail === 0 ? reveal([i]) : undefined)} />
                    : <span class="scratch covered" aria-label={`${s.carats.cell(i)}${s.colon}${s.hiddenCell}`} role="img" />}
                </span>
              );
            })}
          </div>
        ))}
        {/* The silver over the covered cells, one canvas for the grid (scratch-layer.ts). */}
        {canScratch && <canvas class="scratch-cover" ref={silver} aria-hidden="true" />}
      </div>
    </div>
  );
}
