import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { newClient, type Room, type Session } from './api';
import type { GameCatalogEntry, StakePrize } from '../../src/protocol/catalog';
import type { PurchasePick, TableMessages } from '../../src/protocol/table';
import type { Wallet } from '../../src/protocol/wallet';
import { ConnectionState, watchConnection, type Connection } from './connection';
import { SCREENS, describeEvent } from './games';
import { count, euros, gameName, refusalSentence, STRINGS, type Strings } from './i18n';
import { History } from './lobby';
import { usePaced } from './pacing';
import { Sender, followUnits, unitsOf, type UnitView } from './table';


/** A purchase's idempotency key: random, from the platform (not an outcome: no game RNG needed). */
function requestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function PrizeTable({ s, game, stake }: { s: Strings; game: GameCatalogEntry | undefined; stake: number }) {
  const price = game?.prices.find((p) => p.stake === stake);
  if (!game || !price) return null;
  const lang = s === STRINGS.en ? 'en' : 'fr';
  const at = (prizes: readonly StakePrize[]) => prizes.find((p) => p.stake === stake)?.prize;
  const worth = [
    ...(game.symbols ?? []).flatMap((sym) => {
      const prize = sym.worth && at(sym.worth.prizes);
      return prize ? [{ what: `${sym.worth!.count} × ${sym.label[lang]}`, prize }] : [];
    }),
    ...(game.paysByCount ?? []).flatMap((row) => {
      const prize = at(row.prizes);
      return prize ? [{ what: `${row.count} × ${s.chosenSymbol}`, prize }] : [];
    }),
  ];
  return (
    <details class="rules">
      <summary>{s.rules} · {s.prizeTable}</summary>
      {game.reglement && <p class="hint reglement-title">{s.reglement} : {game.reglement.title}</p>}
      {game.rules?.map((r, i) => <p class="rule" key={i}>{r[lang]}</p>)}
      <table>
        <caption>{s.prizeTable} — {euros(stake, s)}</caption>
        <thead><tr><th scope="col">{s.prizeAmount}</th><th scope="col">{s.prizeCount}</th></tr></thead>
        <tbody>
          {price.tiers.map((t) => <tr key={t.tierId}><td>{euros(t.prize, s)}</td><td>{count(t.count, s)}</td></tr>)}
        </tbody>
      </table>
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

/** The player's table: buy, reveal, AUTO; the balance moves when the screen shows the result. */
export function TableView({ s, session, game, catalog, wallet, setWallet, onBack, onError, onRecall, onSignOut }: {
  s: Strings; session: Session; game: string; catalog: GameCatalogEntry[]; onBack: () => void; onError: (m: string) => void; onRecall: (id: string) => void; onSignOut: () => void;
  wallet: Wallet | undefined; setWallet: (w: Wallet) => void;
}) {
  const entry = catalog.find((g) => g.id === game);
  const [room, setRoom] = useState<Room | undefined>();
  const [connection, setConnection] = useState<Connection>('connecting');
  const [units, setUnits] = useState<UnitView[]>([]);
  const [instant, setInstant] = useState<ReadonlySet<string>>(new Set());
  // The wallet of a reply that ended a reveal, until the screen has shown that end.
  const [pendingWallet, setPendingWallet] = useState<Wallet | undefined>();
  const [stake, setStake] = useState<number | undefined>();
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
      followUnits(r, setUnits);
      r.onMessage('wallet', (w: TableMessages['wallet']) => setWallet(w));
      r.onMessage('resumed', () => setNotice(s.resumed));
      r.onMessage('refused', (reason: TableMessages['refused']) => onError(refusalSentence(reason, s)));
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
    if (caughtUp && pendingWallet) {
      setWallet(pendingWallet);
      setPendingWallet(undefined);
      setHistoryKey((k) => k + 1);
    }
  }, [caughtUp, pendingWallet]);

  const unfinished = units.some((u) => u.status !== 'finished');
  const over = units.length > 0 && !unfinished && caughtUp;
  const screen = SCREENS[game];
  const lastEvent = shown.flatMap((u) => u.events).slice(-1)[0];
  const announcement = lastEvent ? describeEvent(game, lastEvent, s) : '';

  const fail = (err: unknown) => onError(refusalSentence(err, s));
  const act = (action: unknown) => {
    if (!sender) return;
    onError('');
    sender.request('act', { action }).then((reply) => {
      if (reply.wallet) setPendingWallet(reply.wallet);
    }, fail);
  };
  const rub = (progress: number) => {
    sender?.rub(progress)?.then((reply) => {
      if (reply.wallet) setPendingWallet(reply.wallet);
    }, fail);
  };
  const buy = async () => {
    if (!sender || stake === undefined) return;
    const lampPicks = game === 'mysteres-de-la-lampe'
      ? [lampPick.colour && { kind: 'colour', choice: lampPick.colour }, lampPick.symbol && { kind: 'symbol', choice: lampPick.symbol }].filter((p): p is PurchasePick => !!p)
      : undefined;
    setBusy(true);
    onError('');
    setNotice('');
    try {
      const reply = await sender.request('buy', { stake, requestId: requestId(), ...(lampPicks ? { picks: lampPicks } : {}) });
      // A reveal that ended at purchase (Mine d'or without EXTRA) has its prize in this wallet
      // already: the screen shows the stake paid, and the prize once the grid is drawn.
      if (reply.wallet.held === 0 && wallet) {
        setWallet({ balance: wallet.balance - stake * reply.unitIds.length, held: 0 });
        setPendingWallet(reply.wallet);
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
    sender?.request('watchers', { open: !open }).then((r) => setOpen(r.open), fail);
  };
  const lampReady = game !== 'mysteres-de-la-lampe' || lampPick.colour !== '' || lampPick.symbol !== '';
  const totalPrize = units.reduce((sum, u) => sum + u.prize, 0);

  return (
    <section class="panel table" aria-labelledby="game-title">
      <div class="table-head">
        <button type="button" class="link" onClick={onBack}>← {s.back}</button>
        <h2 id="game-title">{gameName(game, catalog, s)}</h2>
        <ConnectionState s={s} state={connection} onRejoin={() => setGeneration((g) => g + 1)} />
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
          <screen.View s={s} units={shown} readOnly={!unfinished} act={act} rub={rub} />
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
