// First: the socket that takes a table's seat carries the player's token (./table-socket.ts).
import './table-socket';
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { BrokenTokenLink, http, storage, type Session } from './api';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { OpenTable } from '../../src/protocol/http';
import type { RecallRecord } from '../../src/protocol/recall';
import type { Wallet } from '../../src/protocol/wallet';
import type { ProtectionState } from '../../src/protocol/protection';
import { AccountMenu } from './account-menu';
import { Feed } from './feed';
import { euros, refusalSentence, STRINGS, type Locale } from './i18n';
import { BackToLobby, LAUNCHED, SessionOver, useLaunch } from './launch';
import { FirstLimits, LimitsPanel, RealityCheck, SessionSummary } from './limits';
import { Lobby } from './lobby';
import { SessionClock, useProtection, WarningBand } from './protection';
import { RecallViewer } from './recall-viewer';
import { SignIn } from './sign-in';
import { soundSetting } from './sound';
import { GamePreview, TableView } from './table-view';
import { WatchView } from './watch-view';
import './styles.css';

const LOCALE_KEY = 'instant-games.locale';

function initialLocale(): Locale {
  const asked = new URLSearchParams(window.location.search).get('lang') ?? localStorage.getItem(LOCALE_KEY);
  return asked === 'en' ? 'en' : 'fr';
}

/**
 * The session kept, or brought by an operator's link; a link whose token cannot be read brings
 * none. A launched page's comes from its launch alone (./launch.tsx), never from the address.
 */
function initialSession(): { readonly session: Session | undefined; readonly brokenLink: boolean } {
  if (LAUNCHED) return { session: undefined, brokenLink: false };
  try {
    return { session: storage.session(), brokenLink: false };
  } catch (err) {
    if (err instanceof BrokenTokenLink) return { session: undefined, brokenLink: true };
    throw err;
  }
}

function App() {
  const [locale, setLocale] = useState<Locale>(initialLocale);
  const s = STRINGS[locale];
  const [first] = useState(initialSession);
  const [session, setSession] = useState<Session | undefined>(first.session);
  const [catalog, setCatalog] = useState<GameCatalogEntry[]>([]);
  // A broken link shows the sign-in, with a sentence saying why.
  const [error, setError] = useState(first.brokenLink ? s.brokenTokenLink : '');
  const [watching, setWatching] = useState<OpenTable | undefined>();
  const [game, setGame] = useState<string | null>(() => (first.session ? storage.game() : null));
  const [recall, setRecall] = useState<{ readonly record: RecallRecord; readonly verify: boolean } | undefined>();
  // « Jouer » before signing in: the sign-in form, then that game.
  const [askSignIn, setAskSignIn] = useState(false);
  const [sound, setSound] = useState(soundSetting.get);
  const main = useRef<HTMLElement>(null);
  // The last balance the server gave (dev login, table join, replies), kept across a reload.
  const [wallet, setWallet] = useState<Wallet | undefined>(() => (LAUNCHED ? undefined : storage.wallet()));
  // An operator's launch: its session in memory only, its game, its language.
  const { launch, end: endLaunch } = useLaunch((reply) => {
    setLocale(reply.language);
    setSession({ token: reply.token, pseudonym: '' });
    storage.saveGame(reply.game);
    setGame(reply.game);
  });
  useEffect(() => storage.saveWallet(wallet), [wallet]);
  // A launched session ended by the operator, or expired, away from a table: the way back.
  const protection = useProtection(session, LAUNCHED ? () => signOut() : undefined);
  // The protection dialogs: « Mes limites », the first limits (until set), the reality check.
  const [dialog, setDialog] = useState<'limits' | 'first' | 'reality' | null>(null);
  const [firstPutOff, setFirstPutOff] = useState(false);
  const realityDue = !!protection.state?.session.realityCheckDue;
  useEffect(() => {
    if (protection.state && !protection.state.stakeLimitSet && !firstPutOff && !dialog) setDialog('first');
  }, [protection.state, firstPutOff]);
  // Shown once when it falls due (a refusal shows it again); Escape leaves it, « JOUER » stays off.
  useEffect(() => {
    if (realityDue && !dialog) setDialog('reality');
  }, [realityDue]);
  const closeDialog = () => {
    if (dialog === 'first') setFirstPutOff(true);
    setDialog(null);
  };

  useEffect(() => {
    document.documentElement.lang = locale;
    localStorage.setItem(LOCALE_KEY, locale);
  }, [locale]);
  useEffect(() => {
    http.games().then(setCatalog, (err: unknown) => setError(refusalSentence(err, s)));
    // For the browser tests' time-to-interactive: the page has its handlers from here on.
    document.documentElement.dataset['interactiveAt'] = String(Math.round(performance.now()));
  }, []);
  // A new screen: its heading takes the focus (a screen reader hears where it is), without scrolling.
  const firstScreen = useRef(true);
  useEffect(() => {
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    // A new screen opens at its top, not at the last screen's scroll position.
    window.scrollTo(0, 0);
    (main.current?.querySelector<HTMLElement>('.prompt input') ?? main.current?.querySelector<HTMLElement>('h2'))?.focus({ preventScroll: true });
  }, [game, watching, recall, askSignIn, !!session]);

  const chooseGame = (g: string | null) => {
    storage.saveGame(g);
    setGame(g);
  };
  /** Signed out, or, launched, the session over (ended by the operator, or expired): the way back only. */
  const signOut = () => {
    if (launch) endLaunch();
    storage.saveSession(undefined);
    chooseGame(null);
    setDialog(null);
    setFirstPutOff(false);
    setWallet(undefined);
    setSession(undefined);
  };
  // The session summed up when the player stops playing or signs out (read fresh, then signed out).
  const [summary, setSummary] = useState<ProtectionState['session'] | undefined>();
  const stopPlaying = async () => {
    const played = session && (await http.protection(session.token).then((p) => p.session, () => protection.state?.session));
    signOut();
    if (played) setSummary(played);
  };
  const signedIn = (sess: Session, balance?: number) => {
    storage.saveSession(sess);
    storage.saveGame(game);
    setSession(sess);
    setAskSignIn(false);
    if (balance !== undefined) setWallet({ balance, held: 0 });
  };
  /** A unit's recall, replayed; with `verify`, checked at once (« Vérifier » on a history line). */
  const openRecall = (unitId: string, verify = false) => {
    if (!session) return;
    http.recall(session.token, unitId).then((record) => setRecall({ record, verify }), (err: unknown) => setError(refusalSentence(err, s)));
  };

  return (
    <>
      <header class="top">
        <h1><span class="logo" aria-hidden="true">◆</span> <span class="title-words">{s.title}</span></h1>
        {session && (
          <p class="balance" data-testid="balance" data-cents={wallet?.balance ?? ''}>
            <span class="balance-label">{s.balance}{s.colon}</span><b>{wallet ? euros(wallet.balance, s) : '…'}</b>
            {wallet && wallet.held > 0 && <small class="held">{euros(wallet.held, s)} {s.held}<span class="held-where"> {s.heldWhere}</span></small>}
          </p>
        )}
        {session && <SessionClock s={s} state={protection.state} />}
        {launch && <BackToLobby s={s} launch={launch} />}
        <AccountMenu s={s}>
          <button type="button" class="link" aria-pressed={sound} onClick={() => { soundSetting.set(!sound); setSound(!sound); }}>{s.sound}</button>
          <button type="button" class="link" onClick={() => setLocale(locale === 'fr' ? 'en' : 'fr')} lang={locale === 'fr' ? 'en' : 'fr'}>{s.otherLocale}</button>
          {session && !launch && <button type="button" class="link" onClick={() => void stopPlaying()}>{s.signOut}</button>}
        </AccountMenu>
      </header>
      <WarningBand s={s} onLimits={session && protection.state ? () => setDialog('limits') : undefined} />
      {error && <p class="error" role="alert">{error} <button type="button" class="close" aria-label={s.closeMessage} onClick={() => setError('')}>×</button></p>}
      <main ref={main}>
        {launch && launch.state !== 'open' ? (
          launch.state === 'over' ? <SessionOver s={s} launch={launch} /> : <p class="notice" role="status">{s.connection.connecting}</p>
        ) : recall ? (
          <RecallViewer s={s} recall={recall.record} verify={recall.verify} catalog={catalog} onClose={() => setRecall(undefined)} />
        ) : watching ? (
          <WatchView s={s} table={watching} catalog={catalog} onClose={() => setWatching(undefined)} onError={setError} />
        ) : !session && (askSignIn || !game) ? (
          <>
            <SignIn s={s} onSession={signedIn} onError={setError} prompt={askSignIn} />
            <Lobby s={s} session={undefined} catalog={catalog} onGame={chooseGame} onWatch={setWatching} onRecall={openRecall} />
          </>
        ) : !session && game ? (
          <GamePreview s={s} game={game} catalog={catalog} onBack={() => chooseGame(null)} onPlay={() => setAskSignIn(true)} />
        ) : session && game ? (
          <TableView key={game} s={s} session={session} game={game} catalog={catalog} wallet={wallet} setWallet={setWallet} sound={sound} onBack={() => chooseGame(null)} onError={setError} onRecall={openRecall} onSignOut={signOut} protection={protection} onDialog={setDialog} />
        ) : (
          <Lobby s={s} session={session} catalog={catalog} onGame={chooseGame} onWatch={setWatching} onRecall={openRecall} />
        )}
        <Feed s={s} catalog={catalog} />
      </main>
      {session && protection.state && (
        dialog === 'first' ? <FirstLimits s={s} session={session} state={protection.state} proposedWeek={session.stakeLimitProposal} onState={protection.set} onClose={closeDialog} />
          : dialog === 'limits' ? <LimitsPanel s={s} session={session} state={protection.state} onState={protection.set} onClose={closeDialog} />
            : dialog === 'reality' ? <RealityCheck s={s} session={session} state={protection.state} onState={protection.set} onClose={closeDialog} onStop={() => void stopPlaying()} onLimits={() => setDialog('limits')} />
              : null
      )}
      {!session && summary && <SessionSummary s={s} played={summary} onClose={() => setSummary(undefined)} />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
