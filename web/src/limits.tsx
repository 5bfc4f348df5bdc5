import { useState } from 'preact/hooks';
import { http, type Session } from './api';
import {
  EXCLUSION_DURATIONS, LIMIT_KINDS, LIMIT_MAX_CENTS, LIMIT_MIN_CENTS, TIME_LIMIT_KINDS, TIME_LIMIT_MAX_MS, TIME_LIMIT_MIN_MS,
  type ExclusionDuration, type LimitKind, type LimitsRequest, type LimitView, type ProtectionChange, type ProtectionState, type TimeLimitKind, type TimeLimitView,
} from '../../src/protocol/protection';
import { Dialog } from './dialog';
import { dateTime, euros, numberFormat, playTime, refusalSentence, signedEuros, type Strings } from './i18n';

/** An amount typed in euros (« 100 », « 12,50 ») as cents; undefined when it is not one the server takes. */
export function centsOf(text: string): number | undefined {
  const t = text.replace(/[\s\u00a0€]/g, '').replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return undefined;
  const cents = Math.round(Number(t) * 100);
  return cents >= LIMIT_MIN_CENTS && cents <= LIMIT_MAX_CENTS ? cents : undefined;
}

/**
 * A playing time typed: « 2 » (hours), « 1 h 30 », « 1:30 », « 45 min », as ms of whole minutes;
 * undefined when it is not one the server takes for `kind`.
 */
export function playingTimeOf(text: string, kind: TimeLimitKind): number | undefined {
  const t = text.trim().toLowerCase().replace(/\u00a0/g, ' ');
  const inMinutes = /^(\d{1,5})\s*min$/.exec(t);
  const inHours = /^(\d{1,3})\s*(?:(?:h|:)\s*(\d{1,2})?\s*(?:min)?)?$/.exec(t);
  const minutes = inMinutes ? Number(inMinutes[1]) : inHours ? Number(inHours[1]) * 60 + Number(inHours[2] ?? 0) : undefined;
  if (minutes === undefined) return undefined;
  const ms = minutes * 60_000;
  return ms >= TIME_LIMIT_MIN_MS && ms <= TIME_LIMIT_MAX_MS[kind] ? ms : undefined;
}

/** A playing time as the field shows it: « 10 » (hours), « 1 h 30 », « 45 min ». */
function timeFieldOf(ms: number | null | undefined): string {
  if (ms == null) return '';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  return minutes % 60 === 0 ? String(minutes / 60) : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')}`;
}

type AnyKind = LimitKind | TimeLimitKind;
const isTime = (kind: AnyKind): kind is TimeLimitKind => (TIME_LIMIT_KINDS as readonly string[]).includes(kind);

/** Cents as the field shows them: « 100 », « 12,50 » (no currency sign: the label says €). */
function fieldOf(cents: number | null | undefined, s: Strings): string {
  return cents == null ? '' : numberFormat(s.locale, { minimumFractionDigits: cents % 100 === 0 ? 0 : 2, useGrouping: false }).format(cents / 100);
}

/** One field per limit kind, in euros, then the playing-time limits; `required` kinds may not be left empty. */
function LimitFields({ s, values, setValues, required, hints }: {
  s: Strings; values: Record<AnyKind, string>; setValues: (v: Record<AnyKind, string>) => void; required: readonly AnyKind[]; hints?: Partial<Record<AnyKind, string>>;
}) {
  const p = s.protection;
  return (
    <>
      {[...LIMIT_KINDS, ...TIME_LIMIT_KINDS].map((kind) => {
        const hint = hints?.[kind] ?? (isTime(kind) ? p.timeHint : undefined);
        return (
          <p class="limit-field" key={kind}>
            <label for={`limit-${kind}`}>{p.kinds[kind]} ({isTime(kind) ? p.hours : '€'}){required.includes(kind) ? '' : ` — ${p.optional}`}</label>
            <input id={`limit-${kind}`} name={kind} inputMode={isTime(kind) ? 'text' : 'decimal'} autocomplete="off" required={required.includes(kind)} value={values[kind]}
              aria-describedby={hint ? `limit-${kind}-hint` : undefined}
              onInput={(e) => setValues({ ...values, [kind]: (e.target as HTMLInputElement).value })} />
            {hint && <small class="hint" id={`limit-${kind}-hint`}>{hint}</small>}
          </p>
        );
      })}
    </>
  );
}

/**
 * The limits typed, as the request that changes them: only the kinds whose amount differs from
 * the one in force (or pending); an empty field removes an optional limit. Undefined when a
 * field is not an amount (or a playing time) the server takes, with the sentence that says so.
 */
function requestOf(values: Record<AnyKind, string>, state: ProtectionState, required: readonly AnyKind[], s: Strings): LimitsRequest | string {
  const request: { [K in AnyKind]?: number | null } = {};
  for (const view of [...state.limits, ...state.timeLimits]) {
    const text = values[view.kind].trim();
    const wanted = text === '' ? null : isTime(view.kind) ? playingTimeOf(text, view.kind) : centsOf(text);
    const malformed = isTime(view.kind) ? s.protection.timeMalformed : s.refusals.limitMalformed;
    if (wanted === undefined || (wanted === null && (view.kind === 'stake_week' || required.includes(view.kind)))) return malformed;
    const current = view.pending ? view.pending.amount : view.amount;
    if (wanted !== current) request[view.kind] = wanted;
  }
  return request;
}

const fieldsOf = (state: ProtectionState, s: Strings, proposedWeek?: number): Record<AnyKind, string> => ({
  ...(Object.fromEntries(state.limits.map((l) => [l.kind, fieldOf(l.pending ? l.pending.amount : l.amount ?? (l.kind === 'stake_week' ? proposedWeek : null), s)])) as Record<LimitKind, string>),
  ...(Object.fromEntries(state.timeLimits.map((l) => [l.kind, timeFieldOf(l.pending ? l.pending.amount : l.amount)])) as Record<TimeLimitKind, string>),
});

/** What the first sign-in asks: the weekly stake limit and the weekly playing time. */
const FIRST_REQUIRED: readonly AnyKind[] = ['stake_week', 'time_week'];

/**
 * The first sign-in (no weekly stake limit yet): the player sets it before any purchase,
 * prefilled with the demo's proposal, which they must confirm, and a weekly playing time; the
 * daily stake, weekly deposit and daily playing-time limits are optional. « Plus tard » leaves it unset: nothing can be bought until then.
 */
export function FirstLimits({ s, session, state, proposedWeek, onState, onClose }: {
  s: Strings; session: Session; state: ProtectionState; proposedWeek: number | undefined; onState: (p: ProtectionState) => void; onClose: () => void;
}) {
  const [values, setValues] = useState(() => fieldsOf(state, s, proposedWeek));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (ev: Event) => {
    ev.preventDefault();
    const request = requestOf(values, state, FIRST_REQUIRED, s);
    if (typeof request === 'string') return setError(request);
    setBusy(true);
    try {
      onState(await http.setLimits(session.token, request));
      onClose();
    } catch (err) {
      setError(refusalSentence(err, s));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog labelledBy="first-limits-title" onClose={onClose} class="first-limits">
      <form onSubmit={submit}>
        <h2 id="first-limits-title" tabIndex={-1}>{s.protection.firstTitle}</h2>
        <p>{s.protection.firstIntro}</p>
        <LimitFields s={s} values={values} setValues={setValues} required={FIRST_REQUIRED} hints={proposedWeek === undefined ? {} : { stake_week: s.protection.demoDefault }} />
        {error && <p class="dialog-error" role="alert">{error}</p>}
        <p class="dialog-actions">
          <button type="submit" class="primary" disabled={busy}>{s.protection.confirm}</button>
          <button type="button" onClick={onClose}>{s.protection.later}</button>
        </p>
      </form>
    </Dialog>
  );
}

/** One limit in « Mes limites »: its amount, a raise waiting, what is used and left, when the next cent frees. */
function LimitSummary({ s, view }: { s: Strings; view: LimitView }) {
  const p = s.protection;
  return (
    <div class="limit-summary" data-kind={view.kind}>
      <h3>{p.kinds[view.kind]}</h3>
      <p class="limit-amount">{view.amount === null ? p.none : euros(view.amount, s)}</p>
      {view.operator && <p class="operator-limit" data-testid={`operator-${view.kind}`}>{p.operatorLimit(euros(view.operator.amount, s), euros(view.operator.left, s))}</p>}
      {view.pending && (
        <p class="pending" data-testid={`pending-${view.kind}`}>
          {view.pending.amount === null ? p.pendingRemoval(dateTime(view.pending.effectiveAt, s)) : p.pendingRaise(euros(view.pending.amount, s), dateTime(view.pending.effectiveAt, s))}
        </p>
      )}
      <dl>
        <dt>{view.amount === null ? (view.kind.startsWith('deposit') ? p.deposited : p.staked) : p.used}</dt><dd data-testid={`used-${view.kind}`}>{euros(view.used, s)}</dd>
        {view.left !== null && <><dt>{p.leftNow}</dt><dd data-testid={`left-${view.kind}`}>{euros(view.left, s)}</dd></>}
        {/* Under « aucune » nothing is held back: no cent to free. */}
        {view.nextFreeAt !== null && view.amount !== null && <><dt>{p.nextFree}</dt><dd>{dateTime(view.nextFreeAt, s)}</dd></>}
      </dl>
    </div>
  );
}

/** A playing-time limit in « Mes limites »: its time, a raise waiting, the time used and left, when time frees. */
function TimeLimitSummary({ s, view }: { s: Strings; view: TimeLimitView }) {
  const p = s.protection;
  return (
    <div class="limit-summary" data-kind={view.kind}>
      <h3>{p.kinds[view.kind]}</h3>
      <p class="limit-amount">{view.amount === null ? p.none : playTime(view.amount, s)}</p>
      {view.pending && (
        <p class="pending" data-testid={`pending-${view.kind}`}>
          {view.pending.amount === null ? p.pendingRemoval(dateTime(view.pending.effectiveAt, s)) : p.pendingRaise(playTime(view.pending.amount, s), dateTime(view.pending.effectiveAt, s))}
        </p>
      )}
      <dl>
        <dt>{view.amount === null ? p.played : p.used}</dt><dd data-testid={`used-${view.kind}`}>{playTime(view.used, s)}</dd>
        {view.left !== null && <><dt>{p.leftNow}</dt><dd data-testid={`left-${view.kind}`}>{playTime(view.left, s)}</dd></>}
        {view.nextFreeAt !== null && view.amount !== null && <><dt>{p.nextTimeFree}</dt><dd>{dateTime(view.nextFreeAt, s)}</dd></>}
      </dl>
    </div>
  );
}

/** One line of the history of changes, in words. */
function changeLine(c: ProtectionChange, s: Strings): string {
  const p = s.protection;
  switch (c.what) {
    case 'limit':
      return p.change_limit(p.kinds[c.kind ?? 'stake_week']!, c.amount == null ? p.none : c.kind && isTime(c.kind) ? playTime(c.amount, s) : euros(c.amount, s)) + (c.effectiveAt !== undefined && c.effectiveAt > c.at ? p.change_from(dateTime(c.effectiveAt, s)) : '');
    case 'exclusion':
      return p.change_exclusion(c.until === undefined ? '…' : dateTime(c.until, s));
    case 'block':
      return c.until === undefined ? p.change_block : `${p.change_block} — ${p.until(dateTime(c.until, s))}`;
    case 'unblock':
      return p.change_unblock;
    case 'reality_check_ack':
      return p.change_ack;
    case 'reality_check_interval':
      return p.change_interval(c.amount == null ? p.intervalServer : playTime(c.amount, s));
    case 'refusal':
      return p.change_refusal(c.code ? refusalSentence({ code: c.code }, s) : '', c.count ?? 1);
  }
}

/** The reality check's interval the player chooses: every 15 minutes up to the server's, or the server's. */
function RealityInterval({ s, session, state, onState }: { s: Strings; session: Session; state: ProtectionState; onState: (p: ProtectionState) => void }) {
  const p = s.protection;
  const { realityCheckChosenMs: chosen, realityCheckServerMs: longest } = state.session;
  const choices = [15, 30, 45, 60, 90, 120, 180, 240].map((m) => m * 60_000).filter((ms) => ms < longest);
  const [error, setError] = useState('');
  const choose = async (value: string) => {
    try {
      onState(await http.setRealityCheckInterval(session.token, value === '' ? null : Number(value)));
      setError('');
    } catch (err) {
      setError(refusalSentence(err, s));
    }
  };
  return (
    <p class="limit-field reality-interval">
      <label for="reality-interval">{p.intervalLabel}</label>
      <select id="reality-interval" value={chosen === null ? '' : String(chosen)} onChange={(e) => void choose((e.target as HTMLSelectElement).value)}>
        {choices.map((ms) => <option key={ms} value={String(ms)}>{playTime(ms, s)}</option>)}
        <option value="">{playTime(longest, s)}</option>
      </select>
      {error && <span class="dialog-error" role="alert">{error}</span>}
    </p>
  );
}

/** Self-exclusion: a duration, then a confirm step that says it cannot be undone. */
function SelfExclusion({ s, session, onState }: { s: Strings; session: Session; onState: (p: ProtectionState) => void }) {
  const p = s.protection;
  const [duration, setDuration] = useState<ExclusionDuration>('24h');
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState('');
  const exclude = async () => {
    try {
      onState(await http.exclude(session.token, duration));
      setConfirming(false);
    } catch (err) {
      setError(refusalSentence(err, s));
    }
  };
  return (
    <section class="self-exclusion" aria-labelledby="exclusion-title">
      <h3 id="exclusion-title">{p.exclusion}</h3>
      <p class="hint">{p.exclusionHelp}</p>
      {!confirming ? (
        <>
          <fieldset class="durations">
            <legend>{p.exclusion}</legend>
            {EXCLUSION_DURATIONS.map((d) => (
              <label key={d} class="price"><input type="radio" name="exclusion" value={d} checked={duration === d} onChange={() => setDuration(d)} /> {p.durations[d]}</label>
            ))}
          </fieldset>
          <p><button type="button" onClick={() => { setError(''); setConfirming(true); }}>{p.excludeAsk}</button></p>
        </>
      ) : (
        <div class="confirm-exclusion" role="group" aria-labelledby="exclusion-confirm-title">
          <h4 id="exclusion-confirm-title">{p.excludeConfirmTitle(p.durations[duration]!)}</h4>
          <p class="warning-text">{p.excludeWarning}</p>
          <p class="dialog-actions">
            <button type="button" class="danger" onClick={() => void exclude()}>{p.excludeConfirm}</button>
            {/* The focus comes to the safe choice: an Enter pressed on the way cannot exclude by mistake. */}
            <button type="button" onClick={() => setConfirming(false)} ref={(el) => el?.focus({ preventScroll: true })}>{p.cancel}</button>
          </p>
        </div>
      )}
      {error && <p class="dialog-error" role="alert">{error}</p>}
    </section>
  );
}

/**
 * « Mes limites »: the limits in force, raises waiting with their date, what is used and left
 * and when the next cent frees; changing them; self-exclusion; the history of changes.
 */
export function LimitsPanel({ s, session, state, onState, onClose }: { s: Strings; session: Session; state: ProtectionState; onState: (p: ProtectionState) => void; onClose: () => void }) {
  const p = s.protection;
  const [values, setValues] = useState(() => fieldsOf(state, s));
  const [said, setSaid] = useState<{ text: string; error: boolean }>({ text: '', error: false });
  const save = async (ev: Event) => {
    ev.preventDefault();
    const request = requestOf(values, state, ['stake_week'], s);
    if (typeof request === 'string') return setSaid({ text: request, error: true });
    try {
      const next = await http.setLimits(session.token, request);
      onState(next);
      setValues(fieldsOf(next, s));
      setSaid({ text: p.saved, error: false });
    } catch (err) {
      setSaid({ text: refusalSentence(err, s), error: true });
    }
  };
  return (
    <Dialog labelledBy="limits-title" onClose={onClose} class="limits-panel">
      <div class="dialog-head">
        <h2 id="limits-title" tabIndex={-1}>{p.myLimits}</h2>
        <button type="button" class="close" aria-label={s.close} onClick={onClose}>×</button>
      </div>
      {state.blocked && <p class="notice" role="status">{state.blocked.until === null ? p.blocked : p.blockedUntil(dateTime(state.blocked.until, s))}</p>}
      {state.excludedUntil !== null && <p class="notice" role="status" data-testid="excluded-until">{p.excludedUntil(dateTime(state.excludedUntil, s))}</p>}
      <div class="limit-summaries">
        {state.limits.map((view) => <LimitSummary key={view.kind} s={s} view={view} />)}
        {state.timeLimits.map((view) => <TimeLimitSummary key={view.kind} s={s} view={view} />)}
      </div>
      <form class="change-limits" onSubmit={save} aria-labelledby="change-limits-title">
        <h3 id="change-limits-title">{p.change}</h3>
        <p class="hint">{p.changeHelp}</p>
        <LimitFields s={s} values={values} setValues={setValues} required={['stake_week']} />
        <p class="dialog-actions"><button type="submit" class="primary">{p.save}</button></p>
        {said.text && <p class={said.error ? 'dialog-error' : 'notice'} role={said.error ? 'alert' : 'status'}>{said.text}</p>}
      </form>
      <RealityInterval s={s} session={session} state={state} onState={onState} />
      {state.excludedUntil === null && <SelfExclusion s={s} session={session} onState={onState} />}
      <section aria-labelledby="changes-title">
        <h3 id="changes-title">{p.historyTitle}</h3>
        {state.history.length === 0 ? <p class="hint">{p.noChanges}</p> : (
          <ul class="changes">
            {state.history.map((c, i) => (
              <li key={i}><time dateTime={new Date(c.at).toISOString()}>{dateTime(c.at, s)}</time> — {changeLine(c, s)}{c.by === 'operator' ? ` (${p.byOperator})` : ''}</li>
            ))}
          </ul>
        )}
      </section>
    </Dialog>
  );
}

/** The help line, as the law's warning names it: its site and its free number. */
function HelpLine({ s }: { s: Strings }) {
  const p = s.protection;
  return (
    <p class="help-line" data-testid="help-line">
      {p.helpLine} <a href="https://www.joueurs-info-service.fr" target="_blank" rel="noopener noreferrer">joueurs-info-service.fr</a>
      {' · '}<a href="tel:+33974751313">{p.helpPhone}</a>
    </p>
  );
}

/** A session's figures: time played, staked, won, net. */
function SessionFigures({ s, played, testIds }: { s: Strings; played: ProtectionState['session']; testIds: string }) {
  const p = s.protection;
  return (
    <dl class="reality-figures">
      <dt>{p.timePlayed}</dt><dd data-testid={`${testIds}-time`}>{playTime(played.playedMs, s)}</dd>
      <dt>{p.staked}</dt><dd data-testid={`${testIds}-staked`}>{euros(played.staked, s)}</dd>
      <dt>{p.won}</dt><dd data-testid={`${testIds}-won`}>{euros(played.won, s)}</dd>
      <dt>{p.net}</dt><dd data-testid={`${testIds}-net`}>{signedEuros(played.net, s)}</dd>
    </dl>
  );
}

/**
 * The reality check, due after the session's interval: the session so far, and the ways on:
 * « Continuer » (acknowledged: play goes on), « Arrêter de jouer » (the tables left, the session
 * summed up, signed out), « Mes limites », and the help line.
 */
export function RealityCheck({ s, session, state, onState, onClose, onStop, onLimits }: {
  s: Strings; session: Session; state: ProtectionState; onState: (p: ProtectionState) => void; onClose: () => void; onStop: () => void; onLimits: () => void;
}) {
  const p = s.protection;
  const [error, setError] = useState('');
  const acknowledge = async () => {
    try {
      onState(await http.acknowledgeRealityCheck(session.token));
      onClose();
    } catch (err) {
      setError(refusalSentence(err, s));
    }
  };
  return (
    <Dialog labelledBy="reality-title" onClose={onClose} class="reality-check">
      <h2 id="reality-title" tabIndex={-1}>{p.realityTitle}</h2>
      <p>{p.realityIntro}</p>
      <SessionFigures s={s} played={state.session} testIds="reality" />
      {error && <p class="dialog-error" role="alert">{error}</p>}
      <p class="dialog-actions">
        <button type="button" class="primary" onClick={() => void acknowledge()}>{p.understood}</button>
        <button type="button" onClick={onStop}>{p.stopPlaying}</button>
        <button type="button" class="link" onClick={onLimits}>{p.myLimits}</button>
      </p>
      <HelpLine s={s} />
    </Dialog>
  );
}

/** The session summed up when the player stops playing or signs out: time played, staked, won, net; and the help line. */
export function SessionSummary({ s, played, onClose }: { s: Strings; played: ProtectionState['session']; onClose: () => void }) {
  const p = s.protection;
  return (
    <Dialog labelledBy="summary-title" onClose={onClose} class="session-summary">
      <h2 id="summary-title" tabIndex={-1}>{p.summaryTitle}</h2>
      <p>{p.summaryIntro}</p>
      <SessionFigures s={s} played={played} testIds="summary" />
      <p class="dialog-actions"><button type="button" class="primary" onClick={onClose}>{p.summaryClose}</button></p>
      <HelpLine s={s} />
    </Dialog>
  );
}
