import type { GameEvent } from '../api';
import type { Strings } from '../i18n';
import type { GameViewProps } from './types';

const COLS = 5;
const ROWS = 4;

interface Gem {
  readonly id: number;
  readonly colour: string;
  /** Entered from the top by a refill (animated in). */
  readonly entered: boolean;
}

interface RainModel {
  /** cells[col][row], row 0 on top. */
  cells: (Gem | null)[][];
  boxes: (string | null)[];
  collected: Record<string, number>;
}

/** The grid rebuilt from the events: shown, collected, fallen, entered. */
export function rainModel(events: readonly GameEvent[]): RainModel {
  let next = 0;
  const model: RainModel = { cells: Array.from({ length: COLS }, () => Array<Gem | null>(ROWS).fill(null)), boxes: Array<string | null>(5).fill(null), collected: {} };
  for (const e of events) {
    switch (e.type) {
      case 'grid_shown':
        (e['grid'] as string[][]).forEach((col, c) => col.forEach((colour, r) => (model.cells[c]![r] = { id: next++, colour, entered: false })));
        break;
      case 'box_opened':
        model.boxes[e['box'] as number] = e['colour'] as string;
        break;
      case 'gems_collected':
        for (const { col, row } of e['cells'] as { col: number; row: number }[]) model.cells[col]![row] = null;
        model.collected[e['colour'] as string] = e['total'] as number;
        break;
      case 'gems_fell': {
        // Moves are applied from the bottom up so that no gem lands on one not yet moved.
        const moves = [...(e['moves'] as { col: number; fromRow: number; toRow: number }[])].sort((a, b) => b.toRow - a.toRow);
        for (const m of moves) {
          model.cells[m.col]![m.toRow] = model.cells[m.col]![m.fromRow]!;
          model.cells[m.col]![m.fromRow] = null;
        }
        break;
      }
      case 'gems_entered':
        for (const { col, row, colour } of e['cells'] as { col: number; row: number; colour: string }[]) model.cells[col]![row] = { id: next++, colour, entered: true };
        break;
    }
  }
  return model;
}

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
