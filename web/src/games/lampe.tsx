import { useRef, useState } from 'preact/hooks';
import type { GameEvent } from '../../../src/protocol/recall';
import { LampArt, Sym } from '../art';
import { euros, type Strings } from '../i18n';
import type { GameViewProps } from './types';

/** Pointer travel (px) that rubs the lamp one percent further. */
const PX_PER_PERCENT = 6;
/** What the « Frotter » button (keyboard) adds. */
const RUB_STEP = 25;

export const LAMP_COLOURS = ['red', 'blue', 'green', 'gold'] as const;
export const LAMP_SYMBOLS = ['star', 'moon', 'sun', 'key'] as const;

export interface LampPick {
  readonly colour: string;
  readonly symbol: string;
}

export function describeLampe(e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'potential_gain_shown') return s.lampe.potentialGain(euros(e['amount'] as number, s));
  if (e.type === 'rub_progress') return s.lampe.progress(e['progress'] as number);
  if (e.type === 'lamp_opened') return s.lampe.result(resultLabel(e['result'] as string, s));
  return undefined;
}

/** A loss: what the lamp revealed against what was chosen (the first unit's pick). */
export function missingLampe(events: readonly GameEvent[], s: Strings): string | undefined {
  const pick = events.find((e) => e.type === 'potential_gain_shown')?.['pick'] as { choice: string } | undefined;
  const result = events.find((e) => e.type === 'lamp_opened')?.['result'] as string | undefined;
  return pick && result ? s.lampe.otherResult(resultLabel(result, s), resultLabel(pick.choice, s)) : undefined;
}

/** « couleur or », « symbole clé »: a colour's name never read as a word of the sentence. */
function resultLabel(result: string, s: Strings): string {
  const colour = s.lampe.colours[result];
  if (colour) return s.lampe.colourOf(colour);
  const symbol = s.lampe.symbols[result];
  return symbol ? s.lampe.symbolOf(symbol) : result;
}

/**
 * The choices offered on screen before paying (article 4): a colour, a symbol, or both; each
 * is a toggle, pressed again to take it back.
 */
export function LampPicks({ s, pick, onPick, disabled }: { s: Strings; pick: LampPick; onPick: (p: LampPick) => void; disabled: boolean }) {
  const group = (kind: 'colour' | 'symbol', ids: readonly string[]) => (
    <div class="lamp-pick-group" role="group" aria-labelledby={`lamp-${kind}`}>
      <span class="label" id={`lamp-${kind}`}>{kind === 'colour' ? s.lampe.yourColour : s.lampe.yourSymbol}</span>
      <span class="lamp-choices">
        {ids.map((id) => {
          const name = kind === 'colour' ? s.lampe.colours[id]! : s.lampe.symbols[id]!;
          const pressed = pick[kind] === id;
          return (
            <button type="button" key={id} class={`lamp-choice lamp-${kind}-${id}`} aria-pressed={pressed} disabled={disabled}
              aria-label={kind === 'colour' ? s.lampe.colourOf(name) : s.lampe.symbolOf(name)}
              onClick={() => onPick({ ...pick, [kind]: pressed ? '' : id })}>
              <Sym id={kind === 'colour' ? 'swatch' : id} /><span aria-hidden="true">{name}</span>
            </button>
          );
        })}
      </span>
    </div>
  );
  return (
    <div class="lamp-picks">
      <p class="hint">{s.lampe.pickOne}</p>
      {group('colour', LAMP_COLOURS)}
      {group('symbol', LAMP_SYMBOLS)}
    </div>
  );
}

/**
 * One lamp for one or two units: each rub advances both, the lamp opens once for both. Drawn
 * per purchase (the table keys it by its units): nothing of the last lamp's rub stays.
 */
export function Lampe({ s, units, readOnly, rub }: GameViewProps) {
  const rubbing = useRef<{ x: number; y: number; travelled: number } | null>(null);
  const [local, setLocal] = useState(0);
  const progressOf = (events: readonly GameEvent[]) => Math.max(0, ...events.filter((e) => e.type === 'rub_progress').map((e) => e['progress'] as number));
  const progress = units.length > 0 ? Math.min(...units.map((u) => progressOf(u.events))) : 0;
  const opened = units.map((u) => u.events.find((e) => e.type === 'lamp_opened')?.['result'] as string | undefined);
  const over = units.length === 0 || units.every((u) => u.events.some((e) => e.type === 'finished'));
  const canRub = !readOnly && !over;
  // The glow follows the finger at once; the progress written is the server's, as it comes back.
  const glow = Math.max(progress, canRub ? local : 0);

  const rubTo = (target: number) => {
    const next = Math.min(100, Math.floor(target));
    if (next > progress && next > 0) rub(next);
  };
  const onDown = (ev: PointerEvent) => {
    if (!canRub) return;
    rubbing.current = { x: ev.clientX, y: ev.clientY, travelled: Math.max(progress, local) * PX_PER_PERCENT };
  };
  const onMove = (ev: PointerEvent) => {
    const r = rubbing.current;
    if (!r || !canRub) return;
    r.travelled += Math.hypot(ev.clientX - r.x, ev.clientY - r.y);
    r.x = ev.clientX;
    r.y = ev.clientY;
    const target = Math.min(100, r.travelled / PX_PER_PERCENT);
    setLocal(Math.floor(target));
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
          const won = pick !== undefined && result === pick.choice;
          return (
            <section class={`lampe-unit${won ? ' won' : ''}`} key={u.unitId}>
              <h3>{pick?.kind === 'symbol' ? s.lampe.yourSymbol : s.lampe.yourColour}</h3>
              {pick && <p class={`pick lamp-${pick.kind}-${pick.choice}`}><Sym id={pick.kind === 'symbol' ? pick.choice : 'swatch'} /> {pick.kind === 'symbol' ? s.lampe.symbols[pick.choice] : s.lampe.colours[pick.choice]}</p>}
              {gain !== undefined && <p class="potential">{s.lampe.potentialGain(euros(gain, s))}</p>}
              <p class="result">{result ? s.lampe.result(resultLabel(result, s)) : '\u00a0'}</p>
            </section>
          );
        })}
      </div>
      <div
        class={`lamp${over && units.length > 0 ? ' lamp-open' : ''}${canRub ? ' lamp-live' : ''}`}
        role="img"
        aria-label={`${s.lampe.lamp} — ${s.lampe.progress(progress)}`}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={onUp}
      >
        <LampArt glow={glow / 100} open={opened.some((r) => r !== undefined)} />
        <span class="lamp-meter" aria-hidden="true"><span style={{ width: `${progress}%` }} /></span>
      </div>
      <p class="lamp-controls">
        <span class={`hint${canRub ? '' : ' idle'}`}>{s.lampe.rubHint}</span>{' '}
        <button type="button" disabled={!canRub} onClick={() => rubTo(progress + RUB_STEP)}>{s.lampe.rub}</button>
      </p>
    </div>
  );
}
