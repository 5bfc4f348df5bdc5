import { useEffect, useState } from 'preact/hooks';
import { http, type Session } from './api';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { OpenTable } from '../../src/protocol/http';
import type { HistoryLine } from '../../src/protocol/recall';
import { euros, gameName, STRINGS, type Strings } from './i18n';

export function Lobby({ s, session, catalog, onGame, onWatch, onRecall }: { s: Strings; session: Session; catalog: GameCatalogEntry[]; onGame: (g: string) => void; onWatch: (t: OpenTable) => void; onRecall: (id: string) => void }) {
  return (
    <>
      <section class="panel">
        <h2>{s.games}</h2>
        <ul class="games">
          {catalog.map((g) => (
            <li key={g.id}>
              <button type="button" class="game-card" onClick={() => onGame(g.id)}>
                <b>{gameName(g.id, catalog, s)}</b>
                <span>{g.prices.map((p) => euros(p.stake, s)).join(' · ')}</span>
                {g.description && <small>{g.description[s === STRINGS.en ? 'en' : 'fr']}</small>}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <OpenTables s={s} catalog={catalog} onWatch={onWatch} />
      <History s={s} session={session} catalog={catalog} onRecall={onRecall} refreshKey={0} />
    </>
  );
}

/** The tables open to watchers, every process's; anyone may watch, signed in or not. */
export function OpenTables({ s, catalog, onWatch }: { s: Strings; catalog: GameCatalogEntry[]; onWatch: (t: OpenTable) => void }) {
  const [tables, setTables] = useState<OpenTable[]>([]);
  useEffect(() => {
    let live = true;
    const load = () => http.tables().then((t) => live && setTables(t), () => undefined);
    load();
    const timer = setInterval(load, 2000);
    return () => { live = false; clearInterval(timer); };
  }, []);
  return (
    <section class="panel" aria-labelledby="tables-title">
      <h2 id="tables-title">{s.tables}</h2>
      {tables.length === 0 ? <p class="hint">{s.noTables}</p> : (
        <ul class="tables">
          {tables.map((t) => (
            <li key={t.roomId}>{gameName(t.game, catalog, s)} — {t.pseudonym} ({s.watchersCount(t.watchers)}) <button type="button" onClick={() => onWatch(t)} aria-label={`${s.watch} ${t.pseudonym}`}>{s.watch}</button></li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function History({ s, session, catalog, onRecall, refreshKey }: { s: Strings; session: Session; catalog: GameCatalogEntry[]; onRecall: (id: string) => void; refreshKey: number }) {
  const [lines, setLines] = useState<readonly HistoryLine[] | undefined>();
  useEffect(() => {
    http.history(session.token).then((h) => setLines(h.units), () => setLines([]));
  }, [session.token, refreshKey]);
  return (
    <section class="panel" aria-labelledby="history-title">
      <h2 id="history-title">{s.history}</h2>
      {lines && lines.length === 0 && <p class="hint">{s.noHistory}</p>}
      <ul class="history">
        {lines?.map((l) => (
          <li key={l.unitId}>
            {new Date(l.soldAt).toLocaleTimeString(s.locale)} — {gameName(l.game, catalog, s)} {euros(l.stake, s)} —{' '}
            {l.prize === null ? s.inProgress : l.prize > 0 ? s.won(euros(l.prize, s)) : s.lost}{' '}
            <button type="button" onClick={() => onRecall(l.unitId)} aria-label={`${s.recall} ${l.unitId}`}>{s.recall}</button>
          </li>
        ))}
      </ul>
    </section>
  );
}
