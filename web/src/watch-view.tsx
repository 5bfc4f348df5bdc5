import { useEffect, useRef, useState } from 'preact/hooks';
import { newClient, type Room } from './api';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { OpenTable } from '../../src/protocol/http';
import { ConnectionState, watchConnection, type Connection } from './connection';
import { SCREENS, describeEvent } from './games';
import { euros, gameName, refusalSentence, type Strings } from './i18n';
import { usePaced } from './pacing';
import { followUnits, unitsOf, type UnitView } from './table';

/** A table open to watchers, followed read-only. */
export function WatchView({ s, table, catalog, onClose, onError }: { s: Strings; table: OpenTable; catalog: GameCatalogEntry[]; onClose: () => void; onError: (m: string) => void }) {
  const [units, setUnits] = useState<UnitView[]>([]);
  const [instant, setInstant] = useState<ReadonlySet<string>>(new Set());
  const [connection, setConnection] = useState<Connection>('connecting');
  const leaving = useRef(false);
  useEffect(() => {
    let joined: Room | undefined;
    newClient().joinById(table.roomId, { watch: true }).then((r) => {
      joined = r;
      setInstant(new Set(unitsOf(r).map((u) => u.unitId)));
      followUnits(r, setUnits);
      watchConnection(r, setConnection, leaving);
      setConnection('connected');
    }, (err: unknown) => {
      onError(refusalSentence(err, s));
      onClose();
    });
    return () => {
      leaving.current = true;
      void joined?.leave();
    };
  }, [table.roomId]);
  const { shown, caughtUp } = usePaced(units, instant);
  const screen = SCREENS[table.game];
  const lastEvent = shown.flatMap((u) => u.events).slice(-1)[0];
  const over = caughtUp && units.length > 0 && units.every((u) => u.status === 'finished');
  const prize = units.reduce((sum, u) => sum + u.prize, 0);
  return (
    <section class="panel table watch" aria-labelledby="watch-title">
      <div class="table-head">
        <button type="button" class="link" onClick={onClose}>← {s.stopWatching}</button>
        <h2 id="watch-title">{gameName(table.game, catalog, s)}</h2>
        <ConnectionState s={s} state={connection} />
      </div>
      <p class="hint">{s.watching(table.pseudonym)}</p>
      {screen && shown.length > 0 && (
        <div class="stage" data-events={shown.reduce((n, u) => n + u.events.length, 0)}>
          <screen.View s={s} units={shown} readOnly act={() => undefined} rub={() => undefined} />
          {over && <p class={`outcome ${prize > 0 ? 'win' : 'loss'}`}>{prize > 0 ? s.won(euros(prize, s)) : s.lost}</p>}
        </div>
      )}
      <p class="sr-only" aria-live="polite">{lastEvent ? describeEvent(table.game, lastEvent, s) : ''}</p>
    </section>
  );
}
