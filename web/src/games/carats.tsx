import { useRef } from 'preact/hooks';
import type { GameEvent } from '../../../src/protocol/recall';
import { euros, type Strings } from '../i18n';
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
  if (e.type === 'winning_numbers_revealed') return `${s.carats.winning}\u00a0: ${(e['numbers'] as number[]).join(', ')}`;
  if (e.type === 'number_revealed') return s.carats.revealed(e['number'] as number, euros(e['amount'] as number, s), e['matched'] as boolean);
  return undefined;
}

/**
 * A scratch card: « Numéros gagnants » on top, « Vos numéros » under a silver layer. A click (or
 * Enter) scratches one number, a drag over several scratches them in one `reveal_many`; a
 * vertical swipe scrolls the page (the grid only takes horizontal gestures).
 */
export function Carats({ s, units, readOnly, act }: GameViewProps) {
  const unit = units[0];
  const drag = useRef<{ indexes: number[] } | null>(null);
  let winning: number[] | null = null;
  const numbers: (Revealed | null)[] = Array(NUMBERS).fill(null);
  for (const e of unit?.events ?? []) {
    if (e.type === 'winning_numbers_revealed') winning = e['numbers'] as number[];
    if (e.type === 'number_revealed') numbers[e['index'] as number] = { number: e['number'] as number, amount: e['amount'] as number, matched: e['matched'] as boolean };
  }
  const over = !unit || unit.events.some((e) => e.type === 'finished');
  const canScratch = !readOnly && !over && winning !== null;
  const hits = new Set(numbers.filter((n) => n?.matched).map((n) => n!.number));

  const indexAt = (x: number, y: number): number | undefined => {
    const el = document.elementFromPoint(x, y)?.closest('[data-index]');
    const i = el ? Number(el.getAttribute('data-index')) : NaN;
    return Number.isInteger(i) && numbers[i] === null ? i : undefined;
  };
  const onDown = (ev: PointerEvent) => {
    if (!canScratch) return;
    const i = indexAt(ev.clientX, ev.clientY);
    if (i === undefined) return;
    drag.current = { indexes: [i] };
  };
  const onMove = (ev: PointerEvent) => {
    const i = drag.current ? indexAt(ev.clientX, ev.clientY) : undefined;
    if (i !== undefined && !drag.current!.indexes.includes(i)) drag.current!.indexes.push(i);
  };
  const onUp = () => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    act(d.indexes.length === 1 ? { type: 'reveal', index: d.indexes[0] } : { type: 'reveal_many', indexes: d.indexes });
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
      <div class="carats-grid" role="grid" aria-labelledby="carats-yours" onPointerDown={onDown} onPointerMove={onMove} onPointerUp={onUp} onPointerCancel={() => (drag.current = null)}>
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
                    ? <button type="button" data-index={i} class="scratch" aria-label={s.carats.cell(i)} onClick={(ev) => (ev.detail === 0 ? act({ type: 'reveal', index: i }) : undefined)} />
                    : <span class="scratch covered" aria-label={`${s.carats.cell(i)}\u00a0: ${s.hiddenCell}`} role="img" />}
                </span>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
