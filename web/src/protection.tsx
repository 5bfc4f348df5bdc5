import { useEffect, useState } from 'preact/hooks';
import { http, type Session } from './api';
import type { LimitView, ProtectionState, TimeLimitView } from '../../src/protocol/protection';
import { euros, dateTime, playTime, refusalOf, signedEuros, type Strings } from './i18n';

/**
 * The mandatory warning (arrêté du 29 juillet 2022), shown unmodified on every screen, in
 * French whatever the page's language: it is the legal text, not one of the page's words.
 */
export const LEGAL_WARNING = 'Les jeux d\'argent et de hasard peuvent être dangereux : pertes d\'argent, conflits familiaux, addiction… Retrouvez nos conseils sur joueurs-info-service.fr (09 74 75 13 13 - appel non surtaxé)';

/** How often the page asks the server for the player's protection state (the session's clock in the header). */
const REFRESH_MS = 30_000;

export interface Protection {
  /** Undefined until the server answered (and when signed out). */
  readonly state: ProtectionState | undefined;
  readonly set: (state: ProtectionState) => void;
  /** Asks the server again: after a purchase, a refusal for these reasons, or on a timer. */
  readonly refresh: () => void;
}

/**
 * The signed-in player's protection state, from `GET /protection`, kept fresh. `gone`: told when
 * the session's token is refused as ended or expired (a launched page has no other way to learn
 * it away from a table).
 */
export function useProtection(session: Session | undefined, gone?: () => void): Protection {
  const [state, set] = useState<ProtectionState | undefined>();
  const [asked, setAsked] = useState(0);
  const token = session?.token;
  useEffect(() => {
    if (!token) return set(undefined);
    let live = true;
    const load = () => http.protection(token).then((p) => live && set(p), (err: unknown) => {
      const { code } = refusalOf(err);
      if (live && (code === 'auth/session_ended' || code === 'auth/expired')) gone?.();
    });
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [token, asked]);
  return { state: token ? state : undefined, set, refresh: () => setAsked((n) => n + 1) };
}

/** « Interdit aux moins de 18 ans », the warning, and « Mes limites » once signed in: in the flow of every screen, never over the game. */
export function WarningBand({ s, onLimits }: { s: Strings; onLimits: (() => void) | undefined }) {
  return (
    <aside class="warning-band" aria-label={s.protection.adultsOnly} data-testid="warning">
      <p>
        <b class="adults-only"><span class="eighteen" aria-hidden="true">18+</span> {s.protection.adultsOnly}</b>{' '}
        <span lang="fr" class="legal-warning">{LEGAL_WARNING}</span>
      </p>
      {onLimits && <button type="button" class="link my-limits" onClick={onLimits}>{s.protection.myLimits}</button>}
    </aside>
  );
}

/** The playing-time limit with the least time left, if any is set. */
function tightestTime(state: ProtectionState): TimeLimitView | undefined {
  return state.timeLimits.filter((l) => l.left !== null).sort((a, b) => a.left! - b.left!)[0];
}

/**
 * The header's session line: time played and net result, always (« Session 12 min · −3 € »; on
 * a phone the word for screen readers only), and the playing time used and left under the
 * tightest limit (« joué 14 min, reste 1 h 16 »; on a phone a column of two lines beside
 * the session's, so that the header keeps its height). Screen readers hear the limit's name.
 */
export function SessionClock({ s, state }: { s: Strings; state: ProtectionState | undefined }) {
  const p = s.protection;
  const time = state ? playTime(state.session.playedMs, s) : '…';
  const net = state ? signedEuros(state.session.net, s) : '…';
  const limit = state && tightestTime(state);
  return (
    <p class="session-clock" data-testid="session">
      <span class="session-now">
        <svg class="clock" viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="8" r="6.5" /><path d="M8 4.5V8l2.5 1.5" /></svg>
        <span class="session-word">{p.session} </span><span class="session-time">{time}</span><span class="session-sep"> · </span><b class={state && state.session.net < 0 ? 'net-loss' : 'net'}>{net}</b>
      </span>
      {limit && (
        <span class="time-limit" data-testid="time-left">
          <span class="session-sep"> · </span><span class="sr-only">{p.kinds[limit.kind]}{s.colon}</span>
          <span class="time-used">{p.timeUsedShort(playTime(limit.used, s, true))}</span><span class="session-sep">, </span>
          <span class="time-left-value">{p.timeLeftShort(playTime(limit.left!, s, true))}</span>
        </span>
      )}
    </p>
  );
}

/** The stake limits in force (weekly and daily), the one with the least left first. */
function stakeLimits(state: ProtectionState): LimitView[] {
  return state.limits.filter((l) => l.kind !== 'deposit_week' && l.left !== null).sort((a, b) => a.left! - b.left!);
}

/** Why « JOUER » is off, and the dialog that lets the player go on (when one does). */
export interface BuyGate {
  readonly reason: string;
  readonly opens?: 'limits' | 'reality';
}

/**
 * Whether a purchase of `cost` may be tried: the server refuses the same cases in the purchase
 * step itself; the page says them before the player presses, and why.
 */
export function buyGate(state: ProtectionState | undefined, balance: number | undefined, cost: number, s: Strings): BuyGate | undefined {
  const p = s.protection;
  if (state?.blocked) return { reason: state.blocked.until === null ? p.blocked : p.blockedUntil(dateTime(state.blocked.until, s)) };
  if (state && state.excludedUntil !== null) return { reason: p.excludedUntil(dateTime(state.excludedUntil, s)) };
  if (state && !state.stakeLimitSet) return { reason: p.setLimitFirst, opens: 'limits' };
  if (state?.session.realityCheckDue) return { reason: p.realityDueHint, opens: 'reality' };
  const time = state && tightestTime(state);
  if (time && time.left === 0) {
    const again = time.nextFreeAt === null ? '' : ` ${p.playAgainAt(dateTime(time.nextFreeAt, s))}`;
    return { reason: (time.kind === 'time_day' ? s.refusals.timeDayReached : s.refusals.timeWeekReached) + again };
  }
  if (balance !== undefined && balance < cost) return { reason: s.refusals.balanceTooLow };
  const tightest = state && stakeLimits(state)[0];
  if (tightest && tightest.left! < cost) {
    const frees = tightest.nextFreeAt === null ? '' : ` ${p.freesAt(dateTime(tightest.nextFreeAt, s))}`;
    return { reason: p.limitLeft(p.kinds[tightest.kind]!, euros(tightest.left!, s)) + frees };
  }
  return undefined;
}
