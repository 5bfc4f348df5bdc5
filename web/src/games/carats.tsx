import { useRef } from 'preact/hooks';
import type { GameEvent } from '../../../src/protocol/recall';
import { euros, type Strings } from '../i18n';
import type { GameViewProps } from './types';

interface Revealed {
  number: number;
  amount: number;
  matched: boolean;
}

export function describeCarats(e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'winning_numbers_revealed') return `${s.carats.winning} : ${(e['numbers'] as number[]).join(', ')}`;
  if (e.type === 'number_revealed') return s.carats.revealed(e['number'] as number, euros(e['amount'] as number, s), e['matched'] as boolean);
  return undefined;
}

export function Carats({ s, units, readOnly, act }: GameViewProps) {
  const unit = units[0];
  const drag = useRef<{ indexes: number[] } | null>(null);
  if (!unit) return null;
  let winning: number[] | null = null;
  const numbers: (Revealed | null)[] = Array(24).fill(null);
  for (const e of unit.events) {
    if (e.type === 'winning_numbers_revealed') winning = e['numbers'] as number[];
    if (e.type === 'number_revealed') numbers[e['index'] as number] = { number: e['number'] as number, amount: e['amount'] as number, matched: e['matched'] as boolean };
  }
  const over = unit.events.some((e) => e.type === 'finished');
  const canScratch = !readOnly && !over && winning !== null;

  // A drag over several numbers scratches them in one `reveal_many`, a click one `reveal`.
  const indexAt = (x: number, y: number): number | undefined => {
    const el = document.elementFromPoint(x, y)?.closest('[data-index]');
    const i = el ? Number(el.getAttribute('data-index')) : NaN;
    return Number.isInteger(i) && numbers[i] === null ? i : undefined;
  };
  const onDown = (ev: PointerEvent) => {
    if (!canScratch) return;
    const i = indexAt(ev.clientX, ev.clientY);
    if (i === undefined) return;
    ev.preventDefault();
    (ev.currentTarget as HTMLElement).setPointerCapture(ev.pointerId);
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

  return (
    <div class="carats">
      <p class="label">{s.carats.winning}</p>
      <div class="winning">
        {winning
          ? (winning as number[]).map((n) => <span class="ball" key={n}>{n}</span>)
          : <button type="button" class="primary" disabled={readOnly || over} onClick={() => act({ type: 'reveal_winning' })}>{s.carats.revealWinning}</button>}
      </div>
      <p class="label">{s.carats.yours}</p>
      {canScratch && <p class="hint">{s.carats.dragHint}</p>}
      <div class="carats-grid" onPointerDown={onDown} onPointerMove={onMove} onPointerUp={onUp} onPointerCancel={() => (drag.current = null)}>
        {numbers.map((n, i) => (
          <button
            type="button"
            key={i}
            data-index={i}
            class={`scratch${n ? ' scratched' : ''}${n?.matched ? ' matched' : ''}`}
            disabled={!canScratch || n !== null}
            aria-label={n ? s.carats.revealed(n.number, euros(n.amount, s), n.matched) : s.carats.cell(i)}
            // Keyboard activation (Enter, Space) has no pointer: detail is 0.
            onClick={(ev) => (ev.detail === 0 ? act({ type: 'reveal', index: i }) : undefined)}
          >
            {n ? <><b>{n.number}</b><small>{euros(n.amount, s)}</small></> : ''}
          </button>
        ))}
      </div>
    </div>
  );
}
