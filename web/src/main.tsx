import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { http, storage, type Session } from './api';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { OpenTable } from '../../src/protocol/http';
import type { RecallRecord } from '../../src/protocol/recall';
import type { Wallet } from '../../src/protocol/wallet';
import { Feed } from './feed';
import { euros, refusalSentence, STRINGS, type Locale } from './i18n';
import { Lobby, OpenTables } from './lobby';
import { RecallViewer } from './recall-viewer';
import { SignIn } from './sign-in';
import { TableView } from './table-view';
import { WatchView } from './watch-view';
import './styles.css';

const LOCALE_KEY = 'instant-games.locale';

function initialLocale(): Locale {
  const asked = new URLSearchParams(window.location.search).get('lang') ?? localStorage.getItem(LOCALE_KEY);
  return asked === 'en' ? 'en' : 'fr';
}

function App() {
  const [locale, setLocale] = useState<Locale>(initialLocale);
  const s = STRINGS[locale];
  const [session, setSession] = useState<Session | undefined>(() => storage.session());
  const [catalog, setCatalog] = useState<GameCatalogEntry[]>([]);
  const [error, setError] = useState('');
  const [watching, setWatching] = useState<OpenTable | undefined>();
  const [game, setGame] = useState<string | null>(() => (storage.session() ? storage.game() : null));
  const [recall, setRecall] = useState<RecallRecord | undefined>();
  // The last balance the server gave (dev login, table join, replies), kept across a reload.
  const [wallet, setWallet] = useState<Wallet | undefined>(() => storage.wallet());
  useEffect(() => storage.saveWallet(wallet), [wallet]);

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
    setWallet(undefined);
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
        {session && (
          <p class="balance" data-testid="balance" data-cents={wallet?.balance ?? ''}>
            {s.balance} : <b>{wallet ? euros(wallet.balance, s) : '…'}</b>
            {wallet && wallet.held > 0 && <small> ({s.held} {euros(wallet.held, s)})</small>}
          </p>
        )}
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
            <SignIn s={s} onSession={(sess, balance) => { storage.saveSession(sess); setSession(sess); if (balance !== undefined) setWallet({ balance, held: 0 }); }} onError={setError} />
            <OpenTables s={s} catalog={catalog} onWatch={setWatching} />
          </>
        ) : game ? (
          <TableView key={game} s={s} session={session} game={game} catalog={catalog} wallet={wallet} setWallet={setWallet} onBack={() => { storage.saveGame(null); setGame(null); }} onError={setError} onRecall={openRecall} onSignOut={signOut} />
        ) : (
          <Lobby s={s} session={session} catalog={catalog} onGame={(g) => { storage.saveGame(g); setGame(g); }} onWatch={setWatching} onRecall={openRecall} />
        )}
        <Feed s={s} catalog={catalog} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
