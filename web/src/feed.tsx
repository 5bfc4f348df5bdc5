import { useEffect, useState } from 'preact/hooks';
import { applyPrizeChanges } from '../../src/rooms/prize-changes';
import { newClient, type CatalogGame, type PrizesLeft, type Room, type Win } from './api';
import { ConnectionState, watchConnection, type Connection } from './connection';
import { count, euros, gameName, type Strings } from './i18n';

const FEED_KEEP = 20;

/** The wins feed and the prizes left per open block, live. */
export function Feed({ s, catalog }: { s: Strings; catalog: CatalogGame[] }) {
  const [wins, setWins] = useState<Win[]>([]);
  const [left, setLeft] = useState<PrizesLeft[]>([]);
  const [connection, setConnection] = useState<Connection>('connecting');
  useEffect(() => {
    let joined: Room | undefined;
    const leaving = { current: false };
    const add = (more: Win[]) => setWins((w) => [...more.slice().reverse(), ...w].slice(0, FEED_KEEP));
    newClient().joinOrCreate('feed').then((r) => {
      joined = r;
      r.onMessage('recent', (m: { wins: Win[] }) => setWins(m.wins.slice().reverse().slice(0, FEED_KEEP)));
      r.onMessage('wins', (m: { wins: Win[] }) => add(m.wins));
      r.onMessage('prizes_left', (p: PrizesLeft[]) => setLeft(p));
      r.onMessage('prizes_changed', (changes: number[]) => setLeft((l) => applyPrizeChanges(l, changes)));
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
