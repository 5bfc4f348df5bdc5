import { useEffect, useState } from 'preact/hooks';
import type { LaunchSessionReply } from '../../src/protocol/http';
import { http } from './api';
import type { Strings } from './i18n';

/**
 * The page opened by an operator's launch (`/?launched=1…`, after GET /launch/<code>): its
 * session comes from the one-use handle the server put in a cookie, traded once for the token,
 * which stays in memory (a reload ends the session: the operator launches again). No sign-in
 * form, no sign-out: « Retour au lobby » leads back to the operator's site.
 */
export const LAUNCHED = new URLSearchParams(window.location.search).has('launched');

/** Where « Retour au lobby » leads, kept for this tab (no secret): a reload can still show the way back. */
const RETURN_KEY = 'instant-games.return-url';

export interface Launch {
  readonly state: 'opening' | 'open' | 'over';
  readonly returnUrl: string | undefined;
}

/** The launch's session, opened once at start; `end` marks it over (ended by the operator, or expired). */
export function useLaunch(opened: (reply: LaunchSessionReply) => void): { launch: Launch | undefined; end: () => void } {
  const [launch, setLaunch] = useState<Launch | undefined>(() => (LAUNCHED ? { state: 'opening', returnUrl: sessionStorage.getItem(RETURN_KEY) ?? undefined } : undefined));
  useEffect(() => {
    if (!LAUNCHED) return;
    http.launchSession().then((reply) => {
      sessionStorage.setItem(RETURN_KEY, reply.returnUrl);
      opened(reply);
      setLaunch({ state: 'open', returnUrl: reply.returnUrl });
    }, () => setLaunch((l) => l && { ...l, state: 'over' }));
  }, []);
  return { launch, end: () => setLaunch((l) => l && { ...l, state: 'over' }) };
}

/** « Retour au lobby »: the operator's page, in the whole window even when the game is framed. */
export function BackToLobby({ s, launch }: { s: Strings; launch: Launch }) {
  return launch.returnUrl ? <a class="back-to-lobby" href={launch.returnUrl} target="_top" rel="noopener">{s.backToLobby}</a> : null;
}

/** What a launched page shows once its session is over (or could not open): the way back. */
export function SessionOver({ s, launch }: { s: Strings; launch: Launch }) {
  return (
    <section class="panel session-over" aria-labelledby="session-over-title">
      <h2 id="session-over-title" tabIndex={-1}>{s.sessionOver}</h2>
      <p>{s.sessionOverHelp}</p>
      {launch.returnUrl && <p><a class="back-to-lobby" href={launch.returnUrl} target="_top" rel="noopener">{s.backToLobby}</a></p>}
    </section>
  );
}
