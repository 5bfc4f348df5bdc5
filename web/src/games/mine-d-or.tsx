import type { GameEvent } from '../../../src/protocol/recall';
import { euros, type Strings } from '../i18n';
import type { GameViewProps } from './types';

interface Combination {
  symbol: string;
  cells: number[];
  aligned: boolean;
  gain: number;
}

export function describeMine(e: GameEvent, s: Strings): string | undefined {
  if (e.type !== 'grid_revealed') return undefined;
  const stage = e['stage'] as number;
  return `${stage === 0 ? s.mine.main : s.mine.stage(stage)} — ${s.mine.gridGain(euros(e['gain'] as number, s))}`;
}

export function MineDOr({ s, units, readOnly, act }: GameViewProps) {
  const unit = units[0];
  if (!unit) return null;
  const grids = unit.events.filter((e) => e.type === 'grid_revealed');
  const last = grids[grids.length - 1];
  const pending = last ? (last['extrasPending'] as number) : 0;
  const over = unit.events.some((e) => e.type === 'finished');
  return (
    <div class="mine">
      <div class="mine-stages">
        {grids.map((g) => {
          const stage = g['stage'] as number;
          const combos = g['combinations'] as Combination[];
          const inCombo = new Map<number, Combination>();
          for (const c of combos) for (const cell of c.cells) inCombo.set(cell, c);
          return (
            <section class="mine-stage" key={stage} aria-label={stage === 0 ? s.mine.main : s.mine.stage(stage)}>
              <h3>{stage === 0 ? s.mine.main : s.mine.stage(stage)}</h3>
              <div class="mine-grid">
                {(g['symbols'] as string[]).map((symbol, i) => (
                  <span key={i} class={`cell shown${inCombo.has(i) ? (inCombo.get(i)!.aligned ? ' matched aligned' : ' matched') : ''}} sym-${symbol}`}>
                    {s.mine.symbols[symbol]}
                  </span>
                ))}
              </div>
              <ul class="combos">
                {combos.map((c) => <li key={c.symbol}>{s.mine.combination(s.mine.symbols[c.symbol] ?? c.symbol, euros(c.gain, s), c.aligned)}</li>)}
              </ul>
              <p>{s.mine.gridGain(euros(g['gain'] as number, s))}</p>
            </section>
          );
        })}
      </div>
      {!over && pending > 0 && (
        <p>
          {s.mine.extrasPending(pending)}{' '}
          <button type="button" class="primary" disabled={readOnly} onClick={() => act({ type: 'extra' })}>{s.mine.extra}</button>
        </p>
      )}
    </div>
  );
}
