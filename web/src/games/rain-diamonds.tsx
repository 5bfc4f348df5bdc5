import type { GameEvent } from '../../../src/protocol/recall';
import { Sym } from '../art';
import type { Strings } from '../i18n';
import { rainModel } from './rain-model';
import type { GameViewProps } from './types';

const COLS = 5;
const ROWS = 4;
const BOXES = 5;

export function describeRain(e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'box_opened') return `${s.rain.box((e['box'] as number) + 1)}\u00a0: ${s.rain.gem(s.rain.colours[e['colour'] as string] ?? String(e['colour']))}`;
  if (e.type === 'gems_collected') return `${s.rain.collected} — ${s.rain.colours[e['colour'] as string]}\u00a0: ${String(e['total'])}`;
  return undefined;
}

/**
 * The grid of 20 gems (each colour its own shape), the five boxes of « Vos symboles », the gems
 * collected. Gems are placed by transform, so a fall is a transition and a refill drops in from
 * the top; screen readers read the same grid as named cells.
 */
export function RainDiamonds({ s, units, readOnly, act }: GameViewProps) {
  const unit = units[0];
  const model = rainModel(unit?.events ?? []);
  const over = !unit || unit.events.some((e) => e.type === 'finished');
  const gems = model.cells.flatMap((col, c) => col.map((gem, r) => (gem ? { gem, c, r } : null))).filter((g) => g !== null);
  const gemName = (colour: string) => s.rain.gem(s.rain.colours[colour] ?? colour);
  return (
    <div class="rain">
      <div class="rain-board">
        <div class="rain-gems" aria-hidden="true">
          {gems.map(({ gem, c, r }) => (
            <span key={gem.id} class={`gem gem-${gem.colour}${gem.entered ? ' gem-entered' : ''}`} style={{ transform: `translate(${c * 100}%, ${r * 100}%)` }}>
              <Sym id={`gem-${gem.colour}`} />
            </span>
          ))}
        </div>
        <div class="rain-grid" role="grid" aria-label={s.rain.grid}>
          {Array.from({ length: ROWS }, (_, r) => (
            <div role="row" key={r}>
              {Array.from({ length: COLS }, (_, c) => {
                const gem = model.cells[c]?.[r];
                return <span role="gridcell" key={c}><span class="sr-only">{s.gridCell(r + 1, c + 1, gem ? gemName(gem.colour) : s.hiddenCell)}</span></span>;
              })}
            </div>
          ))}
        </div>
      </div>
      <h3 class="label" id="rain-boxes">{s.rain.boxes}</h3>
      <div class="rain-boxes" role="group" aria-labelledby="rain-boxes">
        {Array.from({ length: BOXES }, (_, box) => {
          const colour = model.boxes[box] ?? null;
          return (
            <button
              type="button"
              key={box}
              class={`box${colour ? ` box-open gem-${colour}` : ''}`}
              disabled={readOnly || over || colour !== null}
              aria-label={colour ? `${s.rain.box(box + 1)}\u00a0: ${s.rain.colours[colour]}` : s.rain.box(box + 1)}
              onClick={() => act({ type: 'open', box })}
            >
              {colour ? <><Sym id={`gem-${colour}`} /><span>{s.rain.colours[colour]}</span></> : <span aria-hidden="true">?</span>}
            </button>
          );
        })}
      </div>
      <ul class="collected" aria-label={s.rain.collected}>
        {Object.entries(model.collected).map(([colour, n]) => (
          <li key={colour} class={`gem-${colour}`}><Sym id={`gem-${colour}`} /> {s.rain.colours[colour]} × {n}</li>
        ))}
      </ul>
    </div>
  );
}
