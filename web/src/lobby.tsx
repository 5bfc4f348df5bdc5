import { useEffect, useState } from 'preact/hooks';
import { http, type Session } from './api';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { OpenTable } from '../../src/protocol/http';
import type { HistoryLine } from '../../src/protocol/recall';
import { Sym, TILE_ART } from './art';
import { dateTime, euros, gameName, STRINGS, type Strings } from './i18n';
import { oneIn, topPrize } from './odds';

/** The games as tiles: price, top prize and odds from the catalog. Open to all; playing asks to sign in. */
export function Lobby({ s, session, catalog, onGame, onWatch, onRecall }: { s: Strings; session: Session | undefined; catalog: GameCatalogEntry[]; onGame: (g: string) => void; onWatch: (t: OpenTable) => void; onRecall: (id: string, verify?: boolean) => void }) {
  return (
    <>
      <section class="panel" aria-labelledby="games-title">
        <h2 id="games-title" tabIndex={-1}>{s.games}</h2>
        <ul class="games">
          {catalog.map((g) => <GameTile key={g.id} s={s} game={g} catalog={catalog} onGame={onGame} />)}
        </ul>
      </section>
      <OpenTables s={s} catalog={catalog} onWatch={onWatch} />
      {session && <History s={s} session={session} catalog={catalog} onRecall={onRecall} refreshKey={0} />}
    </>
  );
}

function GameTile({ s, game, catalog, onGame }: { s: Strings; game: GameCatalogEntry; catalog: GameCatalogEntry[]; onGame: (g: string) => void }) {
  const name = gameName(game.id, catalog, s);
  const prices = game.prices.map((p) => euros(p.stake, s)).join(' · ');
  const top = s.upTo(euros(topPrize(game), s));
  const first = game.prices[0];
  const odds = first ? s.odds(oneIn(first.blockSize, first.winningUnits, s)) : '';
  // The parts of the name are read apart (« RAIN DIAMONDS, jusqu’à 5 000 €, … »), not run together.
  const apart = <span class="sr-only">,</span>;
  return (
    <li class={`game-card tile-${game.id}`}>
      <button type="button" class="tile-button" onClick={() => onGame(game.id)} aria-describedby={`tile-${game.id}`}>
        <span class="tile-art" aria-hidden="true">{(TILE_ART[game.id] ?? []).map((id, i) => <Sym key={i} id={id} class={id.startsWith('gem-') ? id : `sym-${id}`} />)}</span>
        <b class="tile-name">{name}{apart}</b>
        <span class="tile-top">{top}{apart}</span>
        <span class="tile-prices">{prices}{apart}</span>
        <span class="tile-odds">{odds}</span>
      </button>
      {game.description && <p class="tile-description" id={`tile-${game.id}`}>{game.description[s === STRINGS.en ? 'en' : 'fr']}</p>}
    </li>
  );
}

/** The tables open to watchers, every process's, each player's pseudonym masked by the server; anyone may watch, signed in or not. */
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
      <h2 id="tables-title" tabIndex={-1}>{s.tables}</h2>
      {tables.length === 0 ? <p class="hint">{s.noTables}</p> : (
        <ul class="tables">
          {tables.map((t) => (
            <li key={t.roomId}><span>{gameName(t.game, catalog, s)} — {t.pseudonym} ({s.watchersCount(t.watchers)})</span> <button type="button" class="small" data-room-id={t.roomId} onClick={() => onWatch(t)} aria-label={`${s.watch} ${t.pseudonym}`}>{s.watch}</button></li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function History({ s, session, catalog, onRecall, refreshKey }: { s: Strings; session: Session; catalog: GameCatalogEntry[]; onRecall: (id: string, verify?: boolean) => void; refreshKey: number }) {
  const [lines, setLines] = useState<readonly HistoryLine[] | undefined>();
  const which = (l: HistoryLine) => s.recallOf(gameName(l.game, catalog, s), euros(l.stake, s), dateTime(l.soldAt, s));
  useEffect(() => {
    http.history(session.token).then((h) => setLines(h.units), () => setLines([]));
  }, [session.token, refreshKey]);
  return (
    <section class="panel" aria-labelledby="history-title">
      <h2 id="history-title" tabIndex={-1}>{s.history}</h2>
      {lines && lines.length === 0 && <p class="hint">{s.noHistory}</p>}
      <ul class="history">
        {lines?.map((l) => (
          <li key={l.unitId}>
            <span class="history-line">
              <time dateTime={l.soldAt}>{dateTime(l.soldAt, s)}</time> — {gameName(l.game, catalog, s)} {euros(l.stake, s)} —{' '}
              {l.prize === null ? s.inProgress : l.prize > 0 ? s.won(euros(l.prize, s)) : s.lost}
            </span>
            <span class="history-actions">
              <button type="button" class="small" data-unit-id={l.unitId} onClick={() => onRecall(l.unitId)} aria-label={`${s.recall} — ${which(l)}`}>{s.recall}</button>
              {/* An unfinished unit's recall has no seed yet: the button says when it will verify. */}
              {l.status === 'finished'
                ? <button type="button" class="small" data-verify-unit-id={l.unitId} onClick={() => onRecall(l.unitId, true)} aria-label={s.verify.buttonOf(which(l))}>{s.verify.button}</button>
                : <button type="button" class="small" aria-disabled="true">{s.verify.later}</button>}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
