import { useState } from 'preact/hooks';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { RecallRecord } from '../../src/protocol/recall';
import { SCREENS } from './games';
import { euros, gameName, type Strings } from './i18n';
import type { UnitView } from './table';
import { Verification } from './verification';

/** A past unit replayed from its recall record, one step at a time, and checked (« Vérifier »). */
export function RecallViewer({ s, recall, verify, catalog, onClose }: { s: Strings; recall: RecallRecord; verify: boolean; catalog: GameCatalogEntry[]; onClose: () => void }) {
  const [step, setStep] = useState(0);
  const last = recall.steps.length - 1;
  const events = recall.steps.slice(0, step + 1).flatMap((st) => st.events);
  const screen = SCREENS[recall.game];
  const unit: UnitView = { unitId: recall.unitId, stake: recall.stake, status: step === last ? recall.status : 'in_progress', prize: recall.prize ?? 0, events, steps: step + 1 };
  const end = events.find((e) => e.type === 'finished');
  return (
    <section class="panel recall" aria-labelledby="recall-title">
      <div class="table-head">
        <button type="button" class="link back" onClick={onClose}>← {s.close}</button>
        <h2 id="recall-title" tabIndex={-1}>{s.recall} — {gameName(recall.game, catalog, s)} {euros(recall.stake, s)}</h2>
      </div>
      <p>
        <button type="button" disabled={step === 0} onClick={() => setStep(step - 1)}>{s.previous}</button>{' '}
        <span data-testid="recall-step" aria-live="polite">{s.step(step + 1, last + 1)}</span>{' '}
        <button type="button" disabled={step === last} onClick={() => setStep(step + 1)}>{s.next}</button>
      </p>
      <div class={`stage stage-${recall.game}`}>{screen && <screen.View s={s} game={catalog.find((g) => g.id === recall.game)} units={[unit]} readOnly act={() => undefined} rub={() => undefined} />}</div>
      {end && <p class={`outcome ${(end['prize'] as number) > 0 ? 'win' : 'loss'}`} data-testid="recall-outcome" data-prize={String(end['prize'])}>{(end['prize'] as number) > 0 ? s.won(euros(end['prize'] as number, s)) : s.lost}</p>}
      <Verification s={s} recall={recall} start={verify} />
    </section>
  );
}
