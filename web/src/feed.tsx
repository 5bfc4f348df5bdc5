import { useState } from 'preact/hooks';
import { newClient } from './api';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { FeedMessages, PrizesLeft, Win } from '../../src/protocol/feed';
import { applyPrizeChanges } from '../../src/protocol/prize-changes';
import { ConnectionState, useLiveRoom } from './connection';
import { count, euros, gameName, type Strings } from './i18n';

const FEED_KEEP = 50;
const LINES = 12;

/** One line of the feed: one player's wins at one game, the newest first (the server masks pseudonyms: « Ali*** »). */
interface WinLine {
  readonly pseudonym: string;
  readonly game: string;
  readonly wins: Win[];
}

/**
 * Wins grouped by player and game, newest line first: one player playing AUTO fills one line, not
 * the feed, and a line names the one game all its wins come from.
 */
export function groupWins(wins: readonly Win[]): WinLine[] {
  const lines = new Map<string, WinLine>();
  for (const w of wins) {
    const key = JSON.stringify([w.pseudonym, w.game]);
    const line = lines.get(key);
    if (line) line.wins.push(w);
    else lines.set(key, { pseudonym: w.pseudonym, game: w.game, wins: [w] });
  }
  return [...lines.values()].slice(0, LINES);
}

/** The wins feed and the prizes left per open block, live; it reconnects by itself. */
export function Feed({ s, catalog }: { s: Strings; catalog: GameCatalogEntry[] }) {
  const [wins, setWins] = useState<Win[]>([]);
  const [left, setLeft] = useState<readonly PrizesLeft[]>([]);
  const live = useLiveRoom(() => newClient().joinOrCreate('feed'), (r) => {
    // Newest first.
    r.onMessage('recent', (m: FeedMessages['recent']) => setWins(m.wins.slice().reverse().slice(0, FEED_KEEP)));
    r.onMessage('wins', (m: FeedMessages['wins']) => setWins((w) => [...m.wins.slice().reverse(), ...w].slice(0, FEED_KEEP)));
    r.onMessage('prizes_left', (p: FeedMessages['prizes_left']) => setLeft(p));
    r.onMessage('prizes_changed', (changes: FeedMessages['prizes_changed']) => setLeft((l) => applyPrizeChanges(l, changes)));
  }, { deps: [] });
  return (
    <aside class="panel feed" aria-labelledby="feed-title">
      <div class="feed-head">
        <h2 id="feed-title">{s.feed}</h2>
        <ConnectionState s={s} live={live} />
      </div>
      <ul class="wins" data-testid="feed" tabIndex={0} aria-labelledby="feed-title">
        {groupWins(wins).map((line) => {
          const newest = line.wins[0]!;
          const total = line.wins.reduce((sum, w) => sum + w.amount, 0);
          return (
            <li key={`${line.pseudonym}-${line.game}-${newest.at}`} data-count={line.wins.length} data-game={line.game}>
              <span class="who">{line.pseudonym}</span> — {gameName(line.game, catalog, s)} — <b>{euros(newest.amount, s)}</b>
              {line.wins.length > 1 && <small> ({s.winsGrouped(line.wins.length, euros(total, s))})</small>}
            </li>
          );
        })}
      </ul>
      <details>
        <summary>{s.prizesLeft}</summary>
        <ul class="left">
          {left.map((b) => (
            <li key={b.blockId}>
              {gameName(b.game, catalog, s)} {euros(b.stake, s)}{s.colon}{b.tiers.map((t) => `${euros(t.prize, s)} × ${count(t.left, s)}`).join(', ')}
            </li>
          ))}
        </ul>
      </details>
    </aside>
  );
}
