import type { GameEvent } from '../../../src/protocol/recall';
import type { Strings } from '../i18n';
import { rainModel } from './rain-model';
import type { GameViewProps } from './types';

export function describeRain(e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'box_opened') return s.rain.box((e['box'] as number) + 1) + ' : ' + s.rain.gem(s.rain.colours[e['colour'] as string] ?? String(e['colour']));
  if (e.type === 'gems_collected') return `${s.rain.collected} — ${s.rain.colours[e['colour'] as string]} : ${String(e['total'])}`;
  return undefined;
}

export function RainDiamonds({ s, units, readOnly, act }: GameViewProps) {
  const unit = units[0];
  if (!unit) return null;
  const model = rainModel(unit.events);
  const over = unit.events.some((e) => e.type === 'finished');
  const gems = model.cells.flatMap((col, c) => col.map((gem, r) => (gem ? { gem, c, r } : null))).filter((g) => g !== null);
  return (
    <div class="rain">
      <div class="rain-grid" role="img" aria-label={s.rain.grid}>
        {gems.map(({ gem, c, r }) => (
          <span
            key={gem.id}
            class={`gem gem-${gem.colour}${gem.entered ? ' gem-entered' : ''}`}
            style={{ transform: `translate(${c * 100}%, ${r * 100}%)` }}
            title={s.rain.colours[gem.colour]}
          />
        ))}
      </div>
      <p class="label">{s.rain.boxes}</p>
      <div class="rain-boxes">
        {model.boxes.map((colour, box) => (
          <button
            type="button"
            class={`box${colour ? ` box-open gem-${colour}` : ''}`}
            disabled={readOnly || over || colour !== null}
            aria-label={colour ? `${s.rain.box(box + 1)} : ${s.rain.colours[colour]}` : s.rain.box(box + 1)}
            onClick={() => act({ type: 'open', box })}
          >
            {colour ? s.rain.colours[colour] : '?'}
          </button>
        ))}
      </div>
      <ul class="collected" aria-label={s.rain.collected}>
        {Object.entries(model.collected).map(([colour, n]) => (
          <li key={colour}><span class={`dot gem-${colour}`} /> {s.rain.colours[colour]} × {n}</li>
        ))}
      </ul>
    </div>
  );
}
