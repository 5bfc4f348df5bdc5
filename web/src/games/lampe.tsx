import { useRef, useState } from 'preact/hooks';
import type { GameEvent } from '../../../src/protocol/recall';
import { euros, type Strings } from '../i18n';
import type { GameViewProps } from './types';

/** Pointer travel (px) that rubs the lamp one percent further. */
const PX_PER_PERCENT = 6;
/** What the « Frotter » button (keyboard) adds. */
const RUB_STEP = 25;

export function describeLampe(e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'potential_gain_shown') return s.lampe.potentialGain(euros(e['amount'] as number, s));
  if (e.type === 'rub_progress') return s.lampe.progress(e['progress'] as number);
  if (e.type === 'lamp_opened') return s.lampe.result(resultLabel(e['result'] as string, s));
  return undefined;
}

function resultLabel(result: string, s: Strings): string {
  return s.lampe.colours[result] ?? s.lampe.symbols[result] ?? result;
}

/** One lamp for one or two units: each rub advances both, the lamp opens once for both. */
export function Lampe({ s, units, readOnly, rub }: GameViewProps) {
  const rubbing = useRef<{ x: number; y: number; travelled: number } | null>(null);
  const [local, setLocal] = useState(0);
  if (units.length === 0) return null;
  const progressOf = (events: readonly GameEvent[]) => Math.max(0, ...events.filter((e) => e.type === 'rub_progress').map((e) => e['progress'] as number));
  const progress = Math.min(...units.map((u) => progressOf(u.events)));
  const opened = units.map((u) => u.events.find((e) => e.type === 'lamp_opened')?.['result'] as string | undefined);
  const over = units.every((u) => u.events.some((e) => e.type === 'finished'));
  const canRub = !readOnly && !over;
  // The glow follows the pointer at once; the progress written is the server's, as it comes back.
  const glow = Math.max(progress, canRub ? local : 0);

  const rubTo = (target: number) => {
    const next = Math.min(100, Math.floor(target));
    if (next > progress && next > 0) rub(next);
  };
  const onDown = (ev: PointerEvent) => {
    if (!canRub) return;
    ev.preventDefault();
    (ev.currentTarget as HTMLElement).setPointerCapture(ev.pointerId);
    rubbing.current = { x: ev.clientX, y: ev.clientY, travelled: Math.max(progress, local) * PX_PER_PERCENT };
  };
  const onMove = (ev: PointerEvent) => {
    const r = rubbing.current;
    if (!r) return;
    r.travelled += Math.hypot(ev.clientX - r.x, ev.clientY - r.y);
    r.x = ev.clientX;
    r.y = ev.clientY;
    const target = r.travelled / PX_PER_PERCENT;
    setLocal(Math.min(100, Math.floor(target)));
    rubTo(target);
  };
  const onUp = () => (rubbing.current = null);

  return (
    <div class="lampe">
      <div class="lampe-units">
        {units.map((u, i) => {
          const shown = u.events.find((e) => e.type === 'potential_gain_shown');
          const gain = shown?.['amount'] as number | undefined;
          const pick = shown?.['pick'] as { kind: string; choice: string } | undefined;
          const result = opened[i];
          return (
            <section class="lampe-unit" key={u.unitId}>
              <h3>{pick?.kind === 'symbol' ? s.lampe.yourSymbol : s.lampe.yourColour}</h3>
              {pick && <p class="pick">{pick.kind === 'symbol' ? s.lampe.symbols[pick.choice] : s.lampe.colours[pick.choice]}</p>}
              {gain !== undefined && <p class="potential">{s.lampe.potentialGain(euros(gain, s))}</p>}
              {result && <p class={`result${pick?.choice === result ? ' matched' : ''}`}>{s.lampe.result(resultLabel(result, s))}</p>}
            </section>
          );
        })}
      </div>
      <div
        class={`lamp${over ? ' lamp-open' : ''}`}
        role="img"
        aria-label={`${s.lampe.lamp} — ${s.lampe.progress(progress)}`}
        style={{ '--glow': String(glow / 100) }}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={onUp}
      >
        <svg class="lamp-body" viewBox="0 0 120 70" aria-hidden="true">
          <path d="M10 30 Q30 28 40 40 L80 40 Q95 40 112 22 Q104 46 86 54 L34 54 Q14 50 10 30 Z" />
          <ellipse cx="60" cy="38" rx="16" ry="6" />
          <path d="M52 32 Q60 14 68 32 Z" />
          <rect x="44" y="56" width="32" height="8" rx="3" />
        </svg>
        <span class="lamp-progress" aria-hidden="true" style={{ width: `${progress}%` }} />
      </div>
      <p class="hint">{s.lampe.progress(progress)}</p>
      {canRub && (
        <p>
          <span class="hint">{s.lampe.rubHint}</span>{' '}
          <button type="button" onClick={() => rubTo(progress + RUB_STEP)}>{s.lampe.rub}</button>
        </p>
      )}
    </div>
  );
}
