import type { GameEvent } from '../../../src/protocol/recall';
import type { Strings } from '../i18n';
import type { GameViewProps } from './types';

const GAME_SYMBOLS = ['star', 'bell', 'gift'];

export function describeNoel(e: GameEvent, s: Strings): string | undefined {
  if (e.type === 'symbol_picked') return s.noel.picked(s.noel.symbols[e['symbol'] as string] ?? '');
  return undefined;
}

/** The three game symbols offered: from the opening step when it lists them, else the rules' three. */
function offered(events: readonly GameEvent[]): string[] {
  for (const e of events) {
    const list = e['symbols'] ?? e['offered'];
    if (Array.isArray(list) && list.every((x) => typeof x === 'string') && list.length === 3) return list as string[];
  }
  return GAME_SYMBOLS;
}

export function Noel({ s, units, readOnly, act }: GameViewProps) {
  const unit = units[0];
  if (!unit) return null;
  const picked = unit.events.find((e) => e.type === 'symbol_picked')?.['symbol'] as string | undefined;
  const grid: (string | null)[] = Array(18).fill(null);
  for (const e of unit.events) if (e.type === 'cell_revealed') grid[(e['row'] as number) * 6 + (e['col'] as number)] = e['symbol'] as string;
  const matches = picked ? grid.filter((x) => x === picked).length : 0;
  return (
    <div class="noel">
      {!picked ? (
        <fieldset class="choices">
          <legend>{s.noel.choose}</legend>
          {offered(unit.events).map((symbol) => (
            <button type="button" class="symbol-choice" key={symbol} disabled={readOnly} onClick={() => act({ type: 'pick', symbol })}>
              <span class={`sym sym-${symbol}`} aria-hidden="true" /> {s.noel.symbols[symbol]}
            </button>
          ))}
        </fieldset>
      ) : (
        <p class="label">{s.noel.picked(s.noel.symbols[picked] ?? picked)} — {s.noel.count(matches, s.noel.symbols[picked] ?? picked)}</p>
      )}
      <div class="noel-grid">
        {grid.map((symbol, i) => (
          <span key={i} class={`cell${symbol ? ` shown sym-${symbol}` : ''}${symbol && symbol === picked ? ' matched' : ''}`}>
            {symbol ? s.noel.symbols[symbol] : ''}
          </span>
        ))}
      </div>
    </div>
  );
}
