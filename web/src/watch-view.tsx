import { useState } from 'preact/hooks';
import { newClient } from './api';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { OpenTable } from '../../src/protocol/http';
import type { TableMessages } from '../../src/protocol/table';
import { ConnectionState, useLiveRoom } from './connection';
import { announcement, SCREENS } from './games';
import { euros, gameName, refusalSentence, type Strings } from './i18n';
import { usePaced } from './pacing';
import { followUnits, unitsOf, type UnitView } from './table';

/** What the table tells its watchers about its player (`player` messages, and why it closed). */
type PlayerState = 'here' | 'away' | 'back' | 'left' | 'closed' | 'lost';

const CLOSED_STATE: Partial<Record<string, PlayerState>> = { 'table/closed_to_watchers': 'closed', 'table/lost': 'lost' };

/** A table open to watchers, followed read-only; the watcher is told when its player goes. */
export function WatchView({ s, table, catalog, onClose, onError }: { s: Strings; table: OpenTable; catalog: GameCatalogEntry[]; onClose: () => void; onError: (m: string) => void }) {
  const [units, setUnits] = useState<UnitView[]>([]);
  const [instant, setInstant] = useState<ReadonlySet<string>>(new Set());
  const [player, setPlayer] = useState<PlayerState>('here');
  const live = useLiveRoom(() => newClient().joinOrCreate('watch', { table: table.roomId }), (r) => {
    setInstant(new Set(unitsOf(r).map((u) => u.unitId)));
    followUnits(r, setUnits);
    r.onMessage('player', (m: TableMessages['player']) => setPlayer(m.state));
  }, {
    deps: [table.roomId],
    // A table that is gone or closed to watchers will not come back.
    fatal: (err) => {
      onError(refusalSentence(err, s));
      onClose();
      return true;
    },
    closed: (reason) => setPlayer(CLOSED_STATE[reason ?? ''] ?? 'left'),
  });
  const { shown, caughtUp } = usePaced(units, instant, catalog.find((g) => g.id === table.game)?.pace.stepMs ?? 0);
  const screen = SCREENS[table.game];
  const over = caughtUp && units.length > 0 && units.every((u) => u.status === 'finished');
  const prize = units.reduce((sum, u) => sum + u.prize, 0);
  const told = { here: '', away: s.playerAway, back: s.playerBack, left: s.refusals.playerLeft, closed: s.refusals.closedToWatchers, lost: s.refusals.tableLost }[player];
  return (
    <section class="panel table watch" aria-labelledby="watch-title">
      <div class="table-head">
        <button type="button" class="link back" onClick={onClose}>← {s.stopWatching}</button>
        <h2 id="watch-title" tabIndex={-1}>{gameName(table.game, catalog, s)}</h2>
        <ConnectionState s={s} live={live} />
      </div>
      <p class="hint">{s.watching(table.pseudonym)}</p>
      <p class={`notice player-${player}`} role="status" data-testid="player-state" data-state={player} hidden={!told}>{told}</p>
      <div class={`stage stage-${table.game}`} {...(shown.length > 0 ? { 'data-events': shown.reduce((n, u) => n + u.events.length, 0) } : {})}>
        {screen && <screen.View key={shown.map((u) => u.unitId).join()} s={s} game={catalog.find((g) => g.id === table.game)} units={shown} readOnly act={() => undefined} rub={() => undefined} />}
      </div>
      <div class="status-line">
        {over && <p class={`outcome ${prize > 0 ? 'win' : 'loss'}`}>{prize > 0 ? s.won(euros(prize, s)) : s.lost}</p>}
      </div>
      <p class="sr-only" aria-live="polite">{announcement(table.game, shown, s)}</p>
    </section>
  );
}
