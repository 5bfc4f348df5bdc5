import { useEffect, useState } from 'preact/hooks';
import { newClient, type Room } from './api';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { FeedMessages, PrizesLeft, Win } from '../../src/protocol/feed';
import { applyPrizeChanges } from '../../src/protocol/prize-changes';
import { ConnectionState, watchConnection, type Connection } from './connection';
import { count, euros, gameName, type Strings } from './i18n';

const FEED_KEEP = 20;

/** The wins feed and the prizes left per open block, live. */
export function Feed({ s, catalog }: { s: Strings; catalog: GameCatalogEntry[] }) {
  const [wins, setWins] = useState<Win[]>([]);
  const [left, setLeft] = useState<readonly PrizesLeft[]>([]);
  const [connection, setConnection] = useState<Connection>('connecting');
  useEffect(() => {
    let joined: Room | undefined;
    const leaving = { current: false };
    const add = (more: readonly Win[]) => setWins((w) => [...more.slice().reverse(), ...w].slice(0, FEED_KEEP));
    newClient().joinOrCreate('feed').then((r) => {
      joined = r;
      r.onMessage('recent', (m: FeedMessages['recent']) => setWins(m.wins.slice().reverse().slice(0, FEED_KEEP)));
      r.onMessage('wins', (m: FeedMessages['wins']) => add(m.wins));
      r.onMessage('prizes_left', (p: FeedMessages['prizes_left']) => setLeft(p));
      r.onMessage('prizes_changed', (changes: FeedMessages['prizes_changed']) => setLeft((l) => applyPrizeChanges(l, changes)));
      watchConnection(r, setConnection, leaving);
      setConnection('connected');
    }, () => setConnection('closed'));
    return () => {
      leaving.current = true;
      void joined?.leave();
    };
  }, []);
  return (
    <aside class="panel feed" aria-labelledby="feed-title">
      <h2 id="feed-title">{s.feed}</h2>
      <ConnectionState s={s} state={connection} />
      <ul class="wins" data-testid="feed">
        {wins.map((w, i) => (
          <li key={`${w.at}-${i}`}>{w.pseudonym} — {gameName(w.game, catalog, s)} — <b>{euros(w.amount, s)}</b></li>
        ))}
      </ul>
      <details>
        <summary>{s.prizesLeft}</summary>
        <ul class="left">
          {left.map((b) => (
            <li key={b.blockId}>
              {gameName(b.game, catalog, s)} {euros(b.stake, s)} : {b.tiers.map((t) => `${euros(t.prize, s)} × ${count(t.left, s)}`).join(', ')}
            </li>
          ))}
        </ul>
      </details>
    </aside>
  );
}
