import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { joinTable, type Session } from './api';
import type { GameCatalogEntry, StakePrize } from '../../src/protocol/catalog';
import type { PurchasePick, TableMessages } from '../../src/protocol/table';
import type { Wallet } from '../../src/protocol/wallet';
import { ConnectionState, useLiveRoom } from './connection';
import { announcement, SCREENS } from './games';
import { LampPicks, type LampPick } from './games/lampe';
import { count, euros, gameName, refusalOf, refusalSentence, STRINGS, type Strings } from './i18n';
import { askToBuy } from './purchase-retry';
import { History } from './lobby';
import { oneIn, payoutBasisPoints, percent, topPrize } from './odds';
import { usePaced } from './pacing';
import { buyGate, type Protection } from './protection';
import { playWin } from './sound';
import { Sender, followUnits, unitsOf, type UnitView } from './table';
import { Tabs } from './tabs';

/** A purchase's idempotency key: random, from the platform (not an outcome: no game RNG needed). */
function requestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const LAMP = 'mysteres-de-la-lampe';
/** A prize this many times the stake is celebrated as a big win. */
const BIG_WIN = 20;

export function PrizeTable({ s, game, stake, open = false }: { s: Strings; game: GameCatalogEntry | undefined; stake: number; open?: boolean }) {
  const price = game?.prices.find((p) => p.stake === stake);
  if (!game || !price) return null;
  const lang = s === STRINGS.en ? 'en' : 'fr';
  const at = (prizes: readonly StakePrize[]) => prizes.find((p) => p.stake === stake)?.prize;
  const worth = [
    ...(game.symbols ?? []).flatMap((sym) => {
      const prize = sym.worth && at(sym.worth.prizes);
      return prize ? [{ what: s.symbolCount(sym.worth!.count, sym.label[lang]), prize }] : [];
    }),
    ...(game.paysByCount ?? []).flatMap((row) => {
      const prize = at(row.prizes);
      return prize ? [{ what: s.chosenCount(row.count), prize }] : [];
    }),
  ];
  return (
    <details class="rules" open={open}>
      <summary>{s.rules} · {s.prizeTable}</summary>
      {game.reglement && <p class="hint reglement-title">{s.reglement}{s.colon}{game.reglement.title}</p>}
      {game.rules?.map((r, i) => <p class="rule" key={i}>{r[lang]}</p>)}
      <table>
        <caption>{s.prizeTable} — {euros(stake, s)}</caption>
        <thead><tr><th scope="col">{s.prizeAmount}</th><th scope="col">{s.prizeCount}</th><th scope="col">{s.oddsColumn}</th></tr></thead>
        <tbody>
          {price.tiers.map((t) => <tr key={t.tierId}><td>{euros(t.prize, s)}</td><td>{count(t.count, s)}</td><td>{s.oneIn(oneIn(price.blockSize, t.count, s))}</td></tr>)}
        </tbody>
      </table>
      <p class="odds-summary">{s.winAtAll(s.oneIn(oneIn(price.blockSize, price.winningUnits, s)))}<br />{s.payoutRate(percent(payoutBasisPoints(price), s))}</p>
      <p>{s.totalPayout(euros(price.totalPayout, s), count(price.winningUnits, s))}</p>
      {worth.length > 0 && (
        <table>
          <caption>{s.symbolWorth} — {euros(stake, s)}</caption>
          <tbody>
            {worth.map((w) => <tr key={w.what}><th scope="row">{w.what}</th><td>{euros(w.prize, s)}</td></tr>)}
          </tbody>
        </table>
      )}
      <p class="hint">{s.blockSize(count(price.blockSize, s))}</p>
    </details>
  );
}

/** The game screen's line: the top prize, the odds of winning at all and the payout rate at this price. */
function OddsLine({ s, game, stake }: { s: Strings; game: GameCatalogEntry | undefined; stake: number | undefined }) {
  const price = game?.prices.find((p) => p.stake === stake);
  if (!game || !price) return null;
  return (
    <p class="odds-line" data-testid="odds-line">
      <b>{s.upTo(euros(topPrize(game), s))}</b> · {s.odds(oneIn(price.blockSize, price.winningUnits, s))} · {s.payoutRate(percent(payoutBasisPoints(price), s))}
    </p>
  );
}

/** The prices offered, as big radio buttons. */
function Prices({ s, game, stake, setStake, disabled }: { s: Strings; game: GameCatalogEntry | undefined; stake: number | undefined; setStake: (n: number) => void; disabled: boolean }) {
  return (
    <fieldset class="prices" disabled={disabled}>
      <legend>{s.price}</legend>
      {game?.prices.map((p) => (
        <label key={p.stake} class="price"><input type="radio" name="stake" value={p.stake} checked={stake === p.stake} onChange={() => setStake(p.stake)} /> {euros(p.stake, s)}</label>
      ))}
    </fieldset>
  );
}

/** How long a win above the stake takes to count up to its amount. */
const COUNT_MS = 700;

const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

/** `target` cents counted up from 0 (whole cents, easing out) when `run`, else `target` at once. */
function useCountUp(target: number, run: boolean): number {
  const [shown, setShown] = useState(run ? 0 : target);
  useEffect(() => {
    if (!run) return setShown(target);
    const start = performance.now();
    let frame = 0;
    const step = (now: number) => {
      const t = Math.min(1, (now - start) / COUNT_MS);
      setShown(Math.round(target * (1 - (1 - t) ** 3)));
      if (t < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [target, run]);
  return shown;
}

/**
 * The outcome, in proportion: nothing to celebrate for a prize not above the stake; a win above
 * it counted up (not under reduced motion; screen readers get the amount, not the count).
 */
function Outcome({ s, prize, stake, missing }: { s: Strings; prize: number; stake: number; missing: string | undefined }) {
  const size = prize === 0 ? 'loss' : prize <= stake ? 'win win-small' : prize >= BIG_WIN * stake ? 'win win-big' : 'win';
  const counted = useCountUp(prize, prize > stake && !reducedMotion());
  const counting = counted !== prize;
  return (
    <p class={`outcome ${size}`} data-testid="outcome" data-prize={prize} tabIndex={-1}>
      {prize > 0 ? <>
        <span aria-hidden={counting ? 'true' : undefined}>{s.won(euros(counted, s))}</span>
        {counting && <span class="sr-only">{s.won(euros(prize, s))}</span>}
      </> : s.lost}
      {prize === 0 && missing && <small class="missing">{missing}</small>}
      {prize > 0 && prize <= stake && <small> — {s.refund}</small>}
      {prize >= BIG_WIN * stake && <span class="burst" aria-hidden="true" />}
    </p>
  );
}

/**
 * Moves the focus to the next meaningful control when an action removed or disabled the one
 * that had it (it would fall to `<body>`): the next thing to scratch, open or rub, else what the
 * game marks as the place to read next (Le Noël's chosen symbol while its cells show), else the
 * buy button. Only after the person acted here, and without scrolling the page.
 */
function useFocusNext(root: { current: HTMLElement | null }): void {
  const acted = useRef(false);
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const mark = () => (acted.current = true);
    el.addEventListener('pointerdown', mark);
    el.addEventListener('keydown', mark);
    return () => {
      el.removeEventListener('pointerdown', mark);
      el.removeEventListener('keydown', mark);
    };
  }, []);
  useLayoutEffect(() => {
    const rescue = () => {
      const active = document.activeElement;
      if (!acted.current || (active && active !== document.body && document.contains(active))) return;
      const next = root.current?.querySelector<HTMLElement>('.stage button:not(:disabled), .stage [data-focus-next], .controls button.auto:not(:disabled), .buy-button:not(:disabled)');
      next?.focus({ preventScroll: true });
    };
    rescue();
    // A button disabled by this render keeps the focus until the browser's next frame lets it go.
    let later: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (later = setTimeout(rescue, 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(later);
    };
  });
}

/** The player's table: buy, reveal, AUTO; the balance moves when the screen shows the result. */
export function TableView({ s, session, game, catalog, wallet, setWallet, onBack, onError, onRecall, onSignOut, sound, protection, onDialog }: {
  s: Strings; session: Session; game: string; catalog: GameCatalogEntry[]; onBack: () => void; onError: (m: string) => void; onRecall: (id: string, verify?: boolean) => void; onSignOut: () => void;
  wallet: Wallet | undefined; setWallet: (w: Wallet) => void; sound: boolean;
  protection: Protection; onDialog: (d: 'limits' | 'first' | 'reality') => void;
}) {
  const entry = catalog.find((g) => g.id === game);
  const [units, setUnits] = useState<UnitView[]>([]);
  const [instant, setInstant] = useState<ReadonlySet<string>>(new Set());
  // The wallet of a reply that ended a reveal, until the screen has shown that end.
  const [pendingWallet, setPendingWallet] = useState<Wallet | undefined>();
  const [stake, setStake] = useState<number | undefined>();
  const [lampPick, setLampPick] = useState<LampPick>({ colour: '', symbol: '' });
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const [historyKey, setHistoryKey] = useState(0);
  const root = useRef<HTMLElement>(null);
  useFocusNext(root);

  const live = useLiveRoom((dropped) => joinTable(session.token, game, dropped), (r, rejoined) => {
    // Units already on the table (a reveal put back) show at once; later steps are paced.
    setInstant(new Set(unitsOf(r).map((u) => u.unitId)));
    followUnits(r, setUnits);
    r.onMessage('wallet', (w: TableMessages['wallet']) => setWallet(w));
    r.onMessage('resumed', () => setNotice(s.resumed));
    r.onMessage('refused', (reason: TableMessages['refused']) => onError(refusalSentence(reason, s)));
    if (rejoined) onError('');
  }, {
    deps: [game, session.token],
    fatal: (err) => {
      const { code } = refusalOf(err);
      if (!code?.startsWith('auth/') && !code?.startsWith('table/')) return false;
      // A demo account's token no longer valid: the embedded server restarted and kept nothing.
      onError(code === 'auth/invalid' && session.pseudonym ? s.demoRestarted : refusalSentence(err, s));
      if (code.startsWith('auth/')) onSignOut();
      return true;
    },
    closed: (reason) => reason && onError(refusalSentence({ message: reason }, s)),
  });
  const { room, connection } = live;
  const sender = useMemo(() => (room ? new Sender(room) : undefined), [room]);

  useEffect(() => {
    if (stake === undefined && entry) setStake(entry.prices[0]?.stake);
  }, [entry]);

  // The game's pace as the server sets it (the catalog is read before any table opens).
  const { shown, caughtUp } = usePaced(units, instant, entry?.pace.stepMs ?? 0);
  const screen = SCREENS[game];
  // Mine d'or's and Le Noël's cells under silver, for the tickets bought here and played by hand
  // (kept with the units they belong to: a new purchase starts with all covered).
  const ticket = units.map((u) => u.unitId).join(' ');
  const [uncovered, setUncovered] = useState<{ ticket: string; keys: ReadonlySet<number> }>({ ticket: '', keys: new Set() });
  const [autoFor, setAutoFor] = useState('');
  const scratching = !!screen?.coverable && units.length > 0 && units.every((u) => !instant.has(u.unitId)) && autoFor !== ticket;
  const scratch = scratching ? {
    uncovered: uncovered.ticket === ticket ? uncovered.keys : new Set<number>(),
    uncover: (keys: readonly number[]) => setUncovered((was) => ({ ticket, keys: new Set([...(was.ticket === ticket ? was.keys : []), ...keys]) })),
  } : undefined;
  // Cells still under silver hold the outcome (and the prize's entry in the balance, and JOUER).
  const held = !!scratch && screen!.coverable!(shown.flatMap((u) => u.events)).some((k) => !scratch.uncovered.has(k));
  // Nothing shown under silver any more (scratched, tapped, opened with the keyboard, or AUTO,
  // which lifts it): the server is told how many steps the player has seen, and only then shows
  // them to the table's watchers and puts the win on the feed (docs/spectators.md).
  const told = useRef(new Map<string, number>());
  const covering = !!screen?.coverable && units.length > 0 && units.every((u) => !instant.has(u.unitId));
  useEffect(() => {
    if (!sender || !covering || held || (scratch && !caughtUp)) return;
    for (const unitId of told.current.keys()) if (!units.some((u) => u.unitId === unitId)) told.current.delete(unitId);
    for (const { unitId, steps } of units) {
      if ((told.current.get(unitId) ?? 0) >= steps) continue;
      told.current.set(unitId, steps);
      // A refusal changes nothing the player sees; a page that joins again is counted as seeing all.
      sender.request('uncovered', { unitId, steps }).catch(() => undefined);
    }
  });
  const seen = caughtUp && !held;
  const unfinished = units.some((u) => u.status !== 'finished');
  const over = units.length > 0 && !unfinished && seen;
  const totalPrize = units.reduce((sum, u) => sum + u.prize, 0);
  const totalStake = units.reduce((sum, u) => sum + u.stake, 0);
  // The prize enters the balance on screen when the screen shows the result, not before.
  useEffect(() => {
    if (seen && pendingWallet) {
      setWallet(pendingWallet);
      setPendingWallet(undefined);
      setHistoryKey((k) => k + 1);
      protection.refresh();
    }
  }, [seen, pendingWallet]);
  useEffect(() => {
    if (!over || totalPrize <= totalStake) return;
    if (sound) playWin(totalPrize / totalStake);
    // A short buzz on a phone that allows it (Vibration API), longer for a big win; not under reduced motion.
    if (!reducedMotion()) navigator.vibrate?.(totalPrize >= BIG_WIN * totalStake ? [60, 40, 120] : 40);
  }, [over]);

  const fail = (err: unknown) => onError(connection === 'connected' ? refusalSentence(err, s) : s.connectionCut);
  const keepWallet = (reply: { wallet?: Wallet }) => {
    if (reply.wallet) setPendingWallet(reply.wallet);
  };
  const act = (action: unknown) => {
    if (!sender) return;
    onError('');
    sender.request('act', { action }).then(keepWallet, fail);
  };
  const rub = (progress: number) => {
    // A unit the server has finished takes no more rubs, whatever the paced screen still shows.
    if (unfinished) sender?.rub(progress)?.then(keepWallet, fail);
  };
  const picks: PurchasePick[] | undefined = game === LAMP
    ? [lampPick.colour && { kind: 'colour', choice: lampPick.colour }, lampPick.symbol && { kind: 'symbol', choice: lampPick.symbol }].filter((p): p is PurchasePick => !!p)
    : undefined;
  const unitsBought = picks ? picks.length : 1;
  // The server's pace: « JOUER » waits out the game's time between two units' starts (the server refuses sooner ones).
  const [paced, setPaced] = useState(false);
  const buy = async (): Promise<boolean> => {
    if (!sender || stake === undefined) return false;
    setBusy(true);
    const unitMs = entry?.pace.unitMs ?? 0;
    if (unitMs > 0) {
      setPaced(true);
      setTimeout(() => setPaced(false), unitMs);
    }
    onError('');
    setNotice('');
    const id = requestId();
    try {
      const reply = await askToBuy(() => sender.request('buy', { stake, requestId: id, ...(picks ? { picks } : {}) }));
      // A reveal that ended at purchase (Mine d'or without EXTRA) has its prize in this wallet
      // already: the screen shows the stake paid, and the prize once the grid is drawn.
      if (reply.wallet.held === 0 && wallet) {
        setWallet({ balance: wallet.balance - stake * reply.unitIds.length, held: 0 });
        setPendingWallet(reply.wallet);
      } else {
        setWallet(reply.wallet);
      }
      return true;
    } catch (err) {
      fail(err);
      // A limit reached, an exclusion, a block, a reality check: the page learns the state that refused it.
      const { code } = refusalOf(err);
      if (code?.startsWith('limit/') || code?.startsWith('protection/')) protection.refresh();
      if (code === 'protection/reality_check') onDialog('reality');
      return false;
    } finally {
      setBusy(false);
    }
  };
  const stage = useRef<HTMLDivElement>(null);
  const buyAndShow = async (): Promise<boolean> => {
    const bought = await buy();
    // The board, not the buy button under it, is where the game goes on.
    if (bought) stage.current?.scrollIntoView({ block: 'nearest' });
    return bought;
  };
  const buyAndReveal = async () => {
    if (await buyAndShow()) act({ type: 'auto' });
  };
  // AUTO reveals for the player: nothing left to scratch either.
  const auto = () => {
    setAutoFor(ticket);
    act({ type: 'auto' });
  };
  const toggleWatchers = () => {
    sender?.request('watchers', { open: !open }).then((r) => setOpen(r.open), fail);
  };
  const cost = (stake ?? 0) * unitsBought;
  // Off, and said why, when the server would refuse it: no limit set, excluded, blocked, reality check, balance or limit left below the price.
  const gate = unfinished || stake === undefined ? undefined : buyGate(protection.state, wallet?.balance, cost, s);
  const canBuy = !!sender && !busy && !paced && stake !== undefined && unitsBought > 0 && !unfinished && seen && !gate;
  const autoNow = unfinished && !!screen?.autoOffered?.(shown.flatMap((u) => u.events));
  const eventsShown = shown.reduce((n, u) => n + u.events.length, 0);

  return (
    <section class="panel table" aria-labelledby="game-title" ref={root}>
      <div class="table-head">
        <button type="button" class="link back" onClick={onBack}>← <span class="back-word">{s.back}</span></button>
        <h2 id="game-title" tabIndex={-1}>{gameName(game, catalog, s)}</h2>
        <ConnectionState s={s} live={live} onRejoin={live.rejoin} />
        <OddsLine s={s} game={entry} stake={units[0]?.stake ?? stake} />
      </div>
      <div class="game-main">
      <div class={`stage stage-${game}`} ref={stage} {...(units.length > 0 ? { 'data-events': eventsShown, 'data-units': units.map((u) => u.unitId).join(' ') } : {})}>
        {screen && <screen.View key={shown.map((u) => u.unitId).join()} s={s} game={entry} units={shown} readOnly={!unfinished} act={act} rub={rub} scratch={scratch} />}
      </div>
      <div class="status-line">
        {over ? <Outcome s={s} prize={totalPrize} stake={totalStake} missing={screen?.missing(shown[0]?.events ?? [], s, entry)} /> : notice && <p class="notice">{notice}</p>}
      </div>
      <div class="controls">
        {game === LAMP && <LampPicks s={s} pick={lampPick} onPick={setLampPick} disabled={unfinished} />}
        <Prices s={s} game={entry} stake={stake} setStake={setStake} disabled={unfinished} />
        <div class="actions">
          <button type="button" class="primary buy-button" disabled={!canBuy} onClick={() => void buyAndShow()} aria-describedby={gate ? 'buy-gate' : undefined}>
            {s.buyUnits(euros((stake ?? 0) * Math.max(1, unitsBought), s), unitsBought, euros(stake ?? 0, s))}
          </button>
          {screen?.autoOffered && (
            unfinished || !screen.autoAtPurchase
              ? <button type="button" class="auto" disabled={!autoNow} onClick={auto}>{s.auto}</button>
              : <button type="button" class="auto" disabled={!canBuy} onClick={() => void buyAndReveal()} aria-describedby={gate ? 'buy-gate' : undefined}>{s.autoBuy}</button>
          )}
        </div>
        {gate && (
          <p class="buy-gate" id="buy-gate" data-testid="buy-gate">
            {gate.reason}
            {gate.opens && <> <button type="button" class="small" onClick={() => onDialog(gate.opens === 'limits' ? 'first' : 'reality')}>{gate.opens === 'limits' ? s.protection.setLimitNow : s.protection.realityOpen}</button></>}
          </p>
        )}
      </div>
      <p class="sr-only" aria-live="polite" data-testid="announce">{held ? s.scratchHint : announcement(game, shown, s)}</p>
      </div>
      <Tabs label={s.moreAboutGame} idPrefix="table" tabs={[
        { id: 'rules', title: s.oddsTab, panel: () => (stake !== undefined ? <PrizeTable s={s} game={entry} stake={units[0]?.stake ?? stake} /> : null) },
        { id: 'history', title: s.history, panel: () => <History s={s} session={session} catalog={catalog} onRecall={onRecall} refreshKey={historyKey} /> },
        {
          id: 'watchers', title: s.watchersTab, panel: () => (
            <p class="watchers-line">
              <button type="button" disabled={!sender} onClick={toggleWatchers} aria-pressed={open}>{open ? s.watchersClose : s.watchersOpen}</button>
              {open && <span class="hint"> {s.tableOpen}</span>}
            </p>
          ),
        },
      ]} />
    </section>
  );
}

/** A game before signing in: its board, prices, rules and prize tables; « Jouer » asks to sign in. */
export function GamePreview({ s, game, catalog, onBack, onPlay }: { s: Strings; game: string; catalog: GameCatalogEntry[]; onBack: () => void; onPlay: () => void }) {
  const entry = catalog.find((g) => g.id === game);
  const [stake, setStake] = useState<number | undefined>();
  const chosen = stake ?? entry?.prices[0]?.stake;
  const screen = SCREENS[game];
  return (
    <section class="panel table" aria-labelledby="game-title">
      <div class="table-head">
        <button type="button" class="link back" onClick={onBack}>← <span class="back-word">{s.back}</span></button>
        <h2 id="game-title" tabIndex={-1}>{gameName(game, catalog, s)}</h2>
        <OddsLine s={s} game={entry} stake={chosen} />
      </div>
      <div class="game-main">
      <div class={`stage stage-${game}`}>
        {screen && <screen.View s={s} game={entry} units={[]} readOnly act={() => undefined} rub={() => undefined} />}
      </div>
      <div class="controls">
        <Prices s={s} game={entry} stake={chosen} setStake={setStake} disabled={false} />
        <div class="actions">
          <button type="button" class="primary buy-button" onClick={onPlay}>{s.play}</button>
          <span class="hint">{s.signInToPlay}</span>
        </div>
      </div>
      </div>
      {chosen !== undefined && <PrizeTable s={s} game={entry} stake={chosen} open />}
    </section>
  );
}
