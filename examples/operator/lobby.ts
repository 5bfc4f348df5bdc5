import { formatEuros } from '../../src/money';
import { signRequest, SIGNATURE_HEADER } from '../../src/operator/signature';
import type { GameCatalogEntry } from '../../src/protocol/catalog';
import type { EndSessionsRequest, LaunchReply, LaunchRequest, LedgerLine } from '../../src/protocol/operator-api';

/**
 * The operator's side of the launch (docs/integration.md, "Launch"): its lobby page, and the
 * signed calls its back end makes to the game server. The reference takes the player from the
 * query (`/lobby?player=`): it stands for the operator's own sign-in, which is not its subject.
 */

const CALL_TIMEOUT_MS = 5000;

/** A signed JSON POST to the game server; the answer's status and body. */
async function signedPost(gameServer: string, secret: string, path: string, body: object, now: number): Promise<{ status: number; text: string }> {
  const text = JSON.stringify(body);
  const res = await fetch(`${gameServer}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signRequest(secret, { method: 'POST', path, body: text }, now) },
    body: text,
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  return { status: res.status, text: await res.text() };
}

/** Asks the game server for a launch: its one-use URL, or an Error with the server's answer. */
export async function requestLaunch(gameServer: string, secret: string, request: LaunchRequest, now: () => number): Promise<LaunchReply> {
  let { status, text } = await signedPost(gameServer, secret, '/operator/launch', request, now());
  if (status === 409 && text.includes('operator/replayed')) {
    // The same launch signed in the same second (a double click) signs the same: sign it again in the next second.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (now() % 1000)));
    ({ status, text } = await signedPost(gameServer, secret, '/operator/launch', request, now()));
  }
  if (status !== 200) throw new Error(`the game server refused the launch: HTTP ${status} ${text.slice(0, 300)}`);
  const reply = JSON.parse(text) as LaunchReply;
  if (typeof reply.url !== 'string' || !/^https?:\/\//.test(reply.url)) throw new Error(`the game server's launch reply has no URL: ${text.slice(0, 300)}`);
  return reply;
}

/** Ends the player's game sessions on the game server (the operator signed the player out). */
export async function endSessions(gameServer: string, secret: string, request: EndSessionsRequest, now: number): Promise<void> {
  const { status, text } = await signedPost(gameServer, secret, '/operator/sessions/end', request, now);
  if (status < 200 || status > 299) throw new Error(`the game server did not end the sessions: HTTP ${status} ${text.slice(0, 300)}`);
}

/** The game server's catalog, or the reason it could not be read. */
export async function fetchGames(gameServer: string): Promise<GameCatalogEntry[] | string> {
  try {
    const res = await fetch(`${gameServer}/games`, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    if (!res.ok) return `HTTP ${res.status}`;
    return (await res.json()) as GameCatalogEntry[];
  } catch (err) {
    return (err as Error).message;
  }
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const KIND_WORDS: Record<LedgerLine['kind'], string> = { debit: 'Mise', credit: 'Gain', rollback: 'Annulation' };
const STATE_WORDS: Record<LedgerLine['state'], string> = { standing: '', rolled_back: ' (annulée)', applied: '', unmatched: ' (rien à annuler)' };

export interface LobbyView {
  readonly player: string;
  readonly balance: number;
  readonly blocked: boolean;
  readonly lines: readonly LedgerLine[];
  readonly games: GameCatalogEntry[] | string;
  readonly notice?: string;
}

/** The lobby page: the balance, a « Jouer » button per game, the player's movements (newest first). */
export function lobbyPage(view: LobbyView): string {
  const player = escape(view.player);
  const games =
    typeof view.games === 'string'
      ? `<p role="alert">Les jeux ne sont pas joignables (${escape(view.games)}).</p>`
      : `<ul class="games">${view.games
          .map((g) => `<li><form method="post" action="/lobby/launch"><input type="hidden" name="player" value="${player}"><input type="hidden" name="game" value="${escape(g.id)}"><span>${escape(g.name)}</span> <button type="submit">Jouer</button></form></li>`)
          .join('')}</ul>`;
  const rows = [...view.lines]
    .reverse()
    .slice(0, 100)
    .map((l) => `<tr><td>${new Date(l.at).toLocaleString('fr-FR', { timeZone: 'Europe/Paris' })}</td><td>${KIND_WORDS[l.kind]}${STATE_WORDS[l.state]}</td><td>${escape(l.game)}</td><td class="amount">${l.kind === 'debit' ? '−' : '+'}${formatEuros(l.amount)} €</td></tr>`)
    .join('');
  return `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lobby de l'opérateur</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;max-width:40rem}ul.games{list-style:none;padding:0}ul.games li{margin:.5rem 0}
button{font-size:1rem;padding:.4rem 1rem}table{border-collapse:collapse;width:100%}td{border-top:1px solid #ccc;padding:.25rem}.amount{text-align:right}</style>
</head><body>
<h1>Lobby de l'opérateur</h1>
${view.notice ? `<p role="alert">${escape(view.notice)}</p>` : ''}
<p>Joueur <strong>${player}</strong>${view.blocked ? ' (bloqué)' : ''} — solde <strong data-testid="balance">${formatEuros(view.balance)} €</strong></p>
<h2>Jeux</h2>
${games}
<form method="post" action="/lobby/logout"><input type="hidden" name="player" value="${player}"><button type="submit">Fermer mes sessions de jeu</button></form>
<h2>Mes mouvements</h2>
<table><tbody data-testid="ledger">${rows || '<tr><td>Aucun mouvement.</td></tr>'}</tbody></table>
</body></html>`;
}
