import type { GameCatalogEntry } from '../../../src/protocol/catalog';
import type { GameEvent } from '../../../src/protocol/recall';
import { Sym } from '../art';
import { euros, type Strings } from '../i18n';
import { rainModel } from './rain-model';
import type { GameViewProps } from './types';

const COLS = 5;
const ROWS = 4;
const BOXES = 5;

export function describeRain(e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'box_opened') return `${s.rain.box((e['box'] as number) + 1)}${s.colon}${s.rain.gem(s.rain.colours[e['colour'] as string] ?? String(e['colour']))}`;
  if (e.type === 'gems_collected') return `${s.rain.collected} — ${s.rain.colours[e['colour'] as string]}${s.colon}${String(e['total'])}`;
  return undefined;
}

/** A loss: the colour that came closest to its goal. */
export function missingRain(events: readonly GameEvent[], s: Strings, game: GameCatalogEntry | undefined): string | undefined {
  const best = Object.entries(rainModel(events).collected).sort((a, b) => b[1] - a[1])[0];
  const goal = game?.symbols?.find((x) => x.id === best?.[0])?.worth?.count;
  return best && goal ? s.rain.closest(s.rain.gem(s.rain.colours[best[0]] ?? best[0]), s.rain.progress(best[1], goal)) : undefined;
}

/**
 * The grid of 20 gems (each colour its own shape), the five boxes of « Vos symboles », and each
 * colour's progress towards its goal (« 4 / 6 ») with what it pays, from the catalog. Gems are placed by transform, so a fall is a transition and a refill drops in from
 * the top; screen readers read the same grid as named cells.
 */
export function RainDiamonds({ s, units, readOnly, act, game }: GameViewProps) {
  const unit = units[0];
  const stake = unit?.stake ?? game?.prices[0]?.stake;
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
              aria-label={colour ? `${s.rain.box(box + 1)}${s.colon}${s.rain.colours[colour]}` : s.rain.box(box + 1)}
              onClick={() => act({ type: 'open', box })}
            >
              {colour ? <><Sym id={`gem-${colour}`} /><span>{s.rain.colours[colour]}</span></> : <span aria-hidden="true">?</span>}
            </button>
          );
        })}
      </div>
      <ul class="collected" aria-label={s.rain.collected}>
        {(game?.symbols ?? []).map((sym) => {
          const n = model.collected[sym.id] ?? 0;
          const goal = sym.worth?.count ?? 0;
          const pays = sym.worth?.prizes.find((p) => p.stake === stake)?.prize;
          return (
            <li key={sym.id} class={`gem-${sym.id}${goal > 0 && n >= goal ? ' reached' : ''}`}>
              <Sym id={`gem-${sym.id}`} />
              <span class="sr-only">{gemName(sym.id)}{s.colon}</span>
              <b>{s.rain.progress(n, goal)}</b>
              {pays !== undefined && <small>{euros(pays, s)}</small>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
