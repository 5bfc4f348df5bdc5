import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { http, newClient, storage, type CatalogGame, type HistoryLine, type OpenTable, type PrizesLeft, type Recall, type Room, type Session, type Wallet, type Win } from './api';
import { SCREENS, describeEvent } from './games';
import { count, euros, refusalSentence, STRINGS, type Locale, type Strings } from './i18n';
import { usePaced } from './pacing';
import { Sender, unitsOf, type UnitView } from './table';
import './styles.css';

type Connection = 'connecting' | 'connected' | 'reconnecting' | 'closed';
type Pick = { kind: string; choice: string };

const LOCALE_KEY = 'instant-games.locale';
const PICKS_KEY = 'instant-games.picks';
const FEED_KEEP = 20;

function initialLocale(): Locale {
  const asked = new URLSearchParams(window.location.search).get('lang') ?? localStorage.getItem(LOCALE_KEY);
  return asked === 'en' ? 'en' : 'fr';
}

/** A purchase's idempotency key: random, from the platform (not an outcome: no game RNG needed). */
function requestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function gameName(game: string, catalog: readonly CatalogGame[], s: Strings): string {
  return s.gameNames[game] ?? catalog.find((g) => g.id === game)?.name ?? game;
}

function App() {
  const [locale, setLocale] = useState<Locale>(initialLocale);
  const s = STRINGS[locale];
  const [session, setSession] = useState<Session | undefined>(() => storage.session());
  const [catalog, setCatalog] = useState<CatalogGame[]>([]);
  const [error, setError] = useState('');
  const [watching, setWatching] = useState<OpenTable | undefined>();
  const [game, setGame] = useState<string | null>(() => (storage.session() ? storage.game() : null));
  const [recall, setRecall] = useState<Recall | undefined>();

  useEffect(() => {
    document.documentElement.lang = locale;
    localStorage.setItem(LOCALE_KEY, locale);
  }, [locale]);
  useEffect(() => {
    http.games().then(setCatalog, (err: unknown) => setError(refusalSentence(err, s)));
    // For the browser tests' time-to-interactive: the page has its handlers from here on.
    document.documentElement.dataset['interactiveAt'] = String(Math.round(performance.now()));
  }, []);

  const signOut = () => {
    storage.saveSession(undefined);
    storage.saveGame(null);
    setGame(null);
    setSession(undefined);
  };
  const openRecall = (unitId: string) => {
    if (!session) return;
    http.recall(session.token, unitId).then(setRecall, (err: unknown) => setError(refusalSentence(err, s)));
  };

  return (
    <>
      <header class="top">
        <h1>{s.title}</h1>
        <button type="button" class="link" onClick={() => setLocale(locale === 'fr' ? 'en' : 'fr')} lang={locale === 'fr' ? 'en' : 'fr'}>{s.otherLocale}</button>
        {session && <button type="button" class="link" onClick={signOut}>{s.signOut}</button>}
      </header>
      {error && <p class="error" role="alert">{error} <button type="button" class="link" aria-label={s.close} onClick={() => setError('')}>×</button></p>}
      <main>
        {recall ? (
          <RecallViewer s={s} recall={recall} catalog={catalog} onClose={() => setRecall(undefined)} />
        ) : watching ? (
          <WatchView s={s} table={watching} catalog={catalog} onClose={() => setWatching(undefined)} onError={setError} />
        ) : !session ? (
          <>
            <SignIn s={s} onSession={(sess) => { storage.saveSession(sess); setSession(sess); }} onError={setError} />
            <OpenTables s={s} catalog={catalog} onWatch={setWatching} />
          </>
        ) : game ? (
          <TableView key={game} s={s} session={session} game={game} catalog={catalog} onBack={() => { storage.saveGame(null); setGame(null); }} onError={setError} onRecall={openRecall} onSignOut={signOut} />
        ) : (
          <Lobby s={s} session={session} catalog={catalog} onGame={(g) => { storage.saveGame(g); setGame(g); }} onWatch={setWatching} onRecall={openRecall} />
        )}
        <Feed s={s} catalog={catalog} />
      </main>
    </>
  );
}

function SignIn({ s, onSession, onError }: { s: Strings; onSession: (s: Session) => void; onError: (m: string) => void }) {
  const [name, setName] = useState('');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const devLogin = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    try {
      const answer = await http.devLogin(name.trim());
      onError('');
      onSession({ token: answer.token, pseudonym: answer.pseudonym });
    } catch (err) {
      onError(refusalSentence(err, s));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel signin">
      <h2>{s.signIn}</h2>
      <form onSubmit={devLogin}>
        <p class="hint">{s.signInHelp}</p>
        <label>{s.pseudonym} <input name="pseudonym" required maxLength={32} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} autocomplete="nickname" /></label>
        <button type="submit" class="primary" disabled={busy}>{s.play}</button>
      </form>
      <form onSubmit={(e) => { e.preventDefault(); if (token.trim()) onSession({ token: token.trim(), pseudonym: '' }); }}>
        <label>{s.operatorToken} <input name="token" value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} autocomplete="off" /></label>
        <button type="submit">{s.useToken}</button>
      </form>
    </section>
  );
}

function Lobby({ s, session, catalog, onGame, onWatch, onRecall }: { s: Strings; session: Session; catalog: CatalogGame[]; onGame: (g: string) => void; onWatch: (t: OpenTable) => void; onRecall: (id: string) => void }) {
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
function OpenTables({ s, catalog, onWatch }: { s: Strings; catalog: CatalogGame[]; onWatch: (t: OpenTable) => void }) {
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

function History({ s, session, catalog, onRecall, refreshKey }: { s: Strings; session: Session; catalog: CatalogGame[]; onRecall: (id: string) => void; refreshKey: number }) {
  const [lines, setLines] = useState<HistoryLine[] | undefined>();
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

function PrizeTable({ s, game, stake }: { s: Strings; game: CatalogGame | undefined; stake: number }) {
  const price = game?.prices.find((p) => p.stake === stake);
  if (!game || !price) return null;
  const lang = s === STRINGS.en ? 'en' : 'fr';
  return (
    <details class="rules">
      <summary>{s.rules} · {s.prizeTable}</summary>
      {game.reglement && <p class="hint">{s.reglement} : {game.reglement.title}</p>}
      {game.rules?.map((r, i) => <p key={i}>{r[lang]}</p>)}
      <table>
        <caption>{s.prizeTable} — {euros(stake, s)}</caption>
        <thead><tr><th scope="col">{s.prizeAmount}</th><th scope="col">{s.prizeCount}</th></tr></thead>
        <tbody>
          {price.tiers.map((t) => <tr key={t.tierId}><td>{euros(t.prize, s)}</td><td>{count(t.count, s)}</td></tr>)}
        </tbody>
      </table>
      <p>{s.totalPayout(euros(price.totalPayout, s), count(price.winningUnits, s))}</p>
      <p class="hint">{s.blockSize(count(price.blockSize, s))}</p>
    </details>
  );
}

/**
 * Connects a room's life to a connection state shown on screen; a close the page did not ask
 * for is explained when the server gave a reason (`table/flood: …`, close code 4429).
 */
function watchConnection(room: Room, set: (c: Connection) => void, leaving: { current: boolean }, explain?: (reason: string) => void): void {
  room.onDrop(() => set('reconnecting'));
  room.onReconnect(() => set('connected'));
  room.onLeave((_code, reason) => {
    if (leaving.current) return;
    set('closed');
    if (reason && explain) explain(reason);
  });
}

function ConnectionState({ s, state, onRejoin }: { s: Strings; state: Connection; onRejoin?: () => void }) {
  return (
    <p class={`connection connection-${state}`} role="status" data-state={state}>
      {s.connection[state]} {state === 'closed' && onRejoin && <button type="button" onClick={onRejoin}>{s.connection.rejoin}</button>}
    </p>
  );
}

/** The player's table: buy, reveal, AUTO; the balance moves when the screen shows the result. */
function TableView({ s, session, game, catalog, onBack, onError, onRecall, onSignOut }: {
  s: Strings; session: Session; game: string; catalog: CatalogGame[]; onBack: () => void; onError: (m: string) => void; onRecall: (id: string) => void; onSignOut: () => void;
}) {
  const entry = catalog.find((g) => g.id === game);
  const [room, setRoom] = useState<Room | undefined>();
  const [connection, setConnection] = useState<Connection>('connecting');
  const [units, setUnits] = useState<UnitView[]>([]);
  const [instant, setInstant] = useState<ReadonlySet<string>>(new Set());
  const [wallet, setWallet] = useState<Wallet | undefined>();
  const pendingWallet = useRef<Wallet | undefined>();
  const [stake, setStake] = useState<number | undefined>();
  const [picks, setPicks] = useState<Record<string, Pick>>(() => JSON.parse(sessionStorage.getItem(PICKS_KEY) ?? '{}') as Record<string, Pick>);
  const [lampPick, setLampPick] = useState<{ colour: string; symbol: string }>({ colour: '', symbol: '' });
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const [generation, setGeneration] = useState(0);
  const [historyKey, setHistoryKey] = useState(0);
  const leaving = useRef(false);
  const sender = useMemo(() => (room ? new Sender(room) : undefined), [room]);

  useEffect(() => {
    if (stake === undefined && entry) setStake(entry.prices[0]?.stake);
  }, [entry]);

  useEffect(() => {
    leaving.current = false;
    let joined: Room | undefined;
    setConnection('connecting');
    newClient(session.token).create('table', { game }).then((r) => {
      joined = r;
      // Units already on the table (a reveal put back) show at once; later steps are paced.
      setInstant(new Set(unitsOf(r).map((u) => u.unitId)));
      setUnits(unitsOf(r));
      r.onStateChange(() => setUnits(unitsOf(r)));
      r.onMessage('wallet', (w: Wallet) => setWallet(w));
      r.onMessage('resumed', () => setNotice(s.resumed));
      r.onMessage('refused', (reason: unknown) => onError(refusalSentence(reason, s)));
      watchConnection(r, setConnection, leaving, (reason) => onError(refusalSentence({ message: reason }, s)));
      setConnection('connected');
      setRoom(r);
    }, (err: unknown) => {
      setConnection('closed');
      onError(refusalSentence(err, s));
      if (/auth\//.test(String((err as Error)?.message))) onSignOut();
    });
    return () => {
      leaving.current = true;
      void joined?.leave();
    };
  }, [game, session.token, generation]);

  const { shown, caughtUp } = usePaced(units, instant);
  // The prize enters the balance on screen when the screen shows the result, not before.
  useEffect(() => {
    if (caughtUp && pendingWallet.current) {
      setWallet(pendingWallet.current);
      pendingWallet.current = undefined;
      setHistoryKey((k) => k + 1);
    }
  }, [caughtUp, shown]);

  const unfinished = units.some((u) => u.status !== 'finished');
  const over = units.length > 0 && !unfinished && caughtUp;
  const screen = SCREENS[game];
  const lastEvent = shown.flatMap((u) => u.events).slice(-1)[0];
  const announcement = lastEvent ? describeEvent(game, lastEvent, s) : '';

  const fail = (err: unknown) => onError(refusalSentence(err, s));
  const act = (action: unknown) => {
    if (!sender) return;
    onError('');
    sender.request<{ wallet?: Wallet }>('act', { action }).then((reply) => {
      if (reply.wallet) pendingWallet.current = reply.wallet;
    }, fail);
  };
  const rub = (progress: number) => {
    sender?.rub(progress)?.then((reply) => {
      if (reply.wallet) pendingWallet.current = reply.wallet;
    }, fail);
  };
  const buy = async () => {
    if (!sender || stake === undefined) return;
    const lampPicks = game === 'mysteres-de-la-lampe'
      ? [lampPick.colour && { kind: 'colour', choice: lampPick.colour }, lampPick.symbol && { kind: 'symbol', choice: lampPick.symbol }].filter((p): p is Pick => !!p)
      : undefined;
    setBusy(true);
    onError('');
    setNotice('');
    try {
      const reply = await sender.request<{ unitIds: string[]; wallet: Wallet }>('buy', { stake, requestId: requestId(), ...(lampPicks ? { picks: lampPicks } : {}) });
      if (lampPicks) {
        const next = { ...picks };
        reply.unitIds.forEach((id, i) => (next[id] = lampPicks[i]!));
        sessionStorage.setItem(PICKS_KEY, JSON.stringify(next));
        setPicks(next);
      }
      // A reveal that ended at purchase (Mine d'or without EXTRA) has its prize in this wallet
      // already: the screen shows the stake paid, and the prize once the grid is drawn.
      if (reply.wallet.held === 0 && wallet) {
        setWallet({ balance: wallet.balance - stake * reply.unitIds.length, held: 0 });
        pendingWallet.current = reply.wallet;
      } else {
        setWallet(reply.wallet);
      }
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const toggleWatchers = () => {
    sender?.request<{ open: boolean }>('watchers', { open: !open }).then((r) => setOpen(r.open), fail);
  };
  const lampReady = game !== 'mysteres-de-la-lampe' || lampPick.colour !== '' || lampPick.symbol !== '';
  const totalPrize = units.reduce((sum, u) => sum + u.prize, 0);

  return (
    <section class="panel table" aria-labelledby="game-title">
      <div class="table-head">
        <button type="button" class="link" onClick={onBack}>← {s.back}</button>
        <h2 id="game-title">{gameName(game, catalog, s)}</h2>
        <ConnectionState s={s} state={connection} onRejoin={() => setGeneration((g) => g + 1)} />
        <p class="balance" data-testid="balance" data-cents={wallet?.balance ?? ''}>
          {s.balance} : <b>{wallet ? euros(wallet.balance, s) : '…'}</b>
          {wallet && wallet.held > 0 && <small> ({s.held} {euros(wallet.held, s)})</small>}
        </p>
      </div>
      {notice && <p class="notice">{notice}</p>}
      {!unfinished && (
        <div class="buy">
          <fieldset class="prices">
            <legend>{s.price}</legend>
            {entry?.prices.map((p) => (
              <label key={p.stake}><input type="radio" name="stake" value={p.stake} checked={stake === p.stake} onChange={() => setStake(p.stake)} /> {euros(p.stake, s)}</label>
            ))}
          </fieldset>
          {game === 'mysteres-de-la-lampe' && (
            <fieldset class="lamp-picks">
              <legend>{s.lampe.pickOne}</legend>
              <label>{s.lampe.yourColour}{' '}
                <select name="colour" value={lampPick.colour} onChange={(e) => setLampPick({ ...lampPick, colour: (e.target as HTMLSelectElement).value })}>
                  <option value="">{s.lampe.none}</option>
                  {Object.entries(s.lampe.colours).map(([id, label]) => <option key={id} value={id}>{label}</option>)}
                </select>
              </label>
              <label>{s.lampe.yourSymbol}{' '}
                <select name="symbol" value={lampPick.symbol} onChange={(e) => setLampPick({ ...lampPick, symbol: (e.target as HTMLSelectElement).value })}>
                  <option value="">{s.lampe.none}</option>
                  {Object.entries(s.lampe.symbols).map(([id, label]) => <option key={id} value={id}>{label}</option>)}
                </select>
              </label>
            </fieldset>
          )}
          <button type="button" class="primary buy-button" disabled={!sender || busy || stake === undefined || !lampReady || !caughtUp} onClick={buy}>
            {s.buy(stake === undefined ? '' : euros(stake, s))}
          </button>
        </div>
      )}
      {stake !== undefined && <PrizeTable s={s} game={entry} stake={units[0]?.stake ?? stake} />}
      {screen && units.length > 0 && (
        <div class="stage" data-events={shown.reduce((n, u) => n + u.events.length, 0)}>
          <screen.View s={s} units={shown} readOnly={!unfinished} act={act} rub={rub} picks={picks} />
          {unfinished && screen.autoOffered(shown.flatMap((u) => u.events)) && (
            <button type="button" class="auto" onClick={() => act({ type: 'auto' })}>{s.auto}</button>
          )}
          {over && (
            <p class={`outcome ${totalPrize > 0 ? 'win' : 'loss'}`} data-testid="outcome" data-prize={totalPrize}>
              {totalPrize > 0 ? s.won(euros(totalPrize, s)) : s.lost}
            </p>
          )}
        </div>
      )}
      <p class="sr-only" aria-live="polite" data-testid="announce">{announcement}</p>
      <p>
        <button type="button" disabled={!sender} onClick={toggleWatchers} aria-pressed={open}>{open ? s.watchersClose : s.watchersOpen}</button>
        {open && <span class="hint"> {s.tableOpen}</span>}
      </p>
      <History s={s} session={session} catalog={catalog} onRecall={onRecall} refreshKey={historyKey} />
    </section>
  );
}

/** A table open to watchers, followed read-only. */
function WatchView({ s, table, catalog, onClose, onError }: { s: Strings; table: OpenTable; catalog: CatalogGame[]; onClose: () => void; onError: (m: string) => void }) {
  const [units, setUnits] = useState<UnitView[]>([]);
  const [instant, setInstant] = useState<ReadonlySet<string>>(new Set());
  const [connection, setConnection] = useState<Connection>('connecting');
  const leaving = useRef(false);
  useEffect(() => {
    let joined: Room | undefined;
    newClient().joinById(table.roomId, { watch: true }).then((r) => {
      joined = r;
      setInstant(new Set(unitsOf(r).map((u) => u.unitId)));
      setUnits(unitsOf(r));
      r.onStateChange(() => setUnits(unitsOf(r)));
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
          <screen.View s={s} units={shown} readOnly act={() => undefined} rub={() => undefined} picks={{}} />
          {over && <p class={`outcome ${prize > 0 ? 'win' : 'loss'}`}>{prize > 0 ? s.won(euros(prize, s)) : s.lost}</p>}
        </div>
      )}
      <p class="sr-only" aria-live="polite">{lastEvent ? describeEvent(table.game, lastEvent, s) : ''}</p>
    </section>
  );
}

/** A past unit replayed from its recall record, one step at a time. */
function RecallViewer({ s, recall, catalog, onClose }: { s: Strings; recall: Recall; catalog: CatalogGame[]; onClose: () => void }) {
  const [step, setStep] = useState(0);
  const last = recall.steps.length - 1;
  const events = recall.steps.slice(0, step + 1).flatMap((st) => st.events);
  const screen = SCREENS[recall.game];
  const picks = recall.picks && typeof recall.picks === 'object' && 'kind' in recall.picks ? { [recall.unitId]: recall.picks as Pick } : {};
  const unit: UnitView = { unitId: recall.unitId, stake: recall.stake, status: step === last ? recall.status : 'in_progress', prize: recall.prize ?? 0, events };
  const end = events.find((e) => e.type === 'finished');
  return (
    <section class="panel recall" aria-labelledby="recall-title">
      <div class="table-head">
        <button type="button" class="link" onClick={onClose}>← {s.close}</button>
        <h2 id="recall-title">{s.recall} — {gameName(recall.game, catalog, s)} {euros(recall.stake, s)}</h2>
      </div>
      <p class="hint">{recall.unitId}</p>
      <p>
        <button type="button" disabled={step === 0} onClick={() => setStep(step - 1)}>{s.previous}</button>{' '}
        <span data-testid="recall-step" aria-live="polite">{s.step(step + 1, last + 1)}</span>{' '}
        <button type="button" disabled={step === last} onClick={() => setStep(step + 1)}>{s.next}</button>
      </p>
      {screen && <screen.View s={s} units={[unit]} readOnly act={() => undefined} rub={() => undefined} picks={picks} />}
      {end && <p class="outcome" data-testid="recall-outcome" data-prize={String(end['prize'])}>{(end['prize'] as number) > 0 ? s.won(euros(end['prize'] as number, s)) : s.lost}</p>}
    </section>
  );
}

/** The wins feed and the prizes left per open block, live. */
function Feed({ s, catalog }: { s: Strings; catalog: CatalogGame[] }) {
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

render(<App />, document.getElementById('app')!);
