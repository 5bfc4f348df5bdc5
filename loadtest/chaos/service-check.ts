import '../node-websocket';
import { Client, type Room } from '@colyseus/sdk';
import { stakesOf } from '../../src/games/prize-tables';
import { rulesOf } from '../../src/games/registry';
import { GAME_IDS, type GameId } from '../../src/games/types';
import { Choices } from '../mix';
import { errorCode, joinWithin, withTimeout } from '../stats';
import { operatorToken, type OperatorSignIn } from '../player';
import { setHarnessStakeLimit } from '../../tools/stake-limit';

/**
 * The chaos run's last check, after its faults are over and its books are checked: on every
 * server process, what a client needs still works. A fault that left a process half-broken (a
 * cache keeping an outage's failure, say) passes the books — its players simply moved to
 * another process — but fails here:
 * - the wins feed can be joined (`joinOrCreate('feed')` through that process's matchmaking);
 * - `GET /tables` answers 200 with a list;
 * - a new player signed in there buys one unit of every (game, price) and plays it to its end
 *   (AUTO), on tables created through that process.
 * Each failure is one sentence naming the process and what failed.
 */

export interface ServiceCheck {
  /** Processes checked, and (game, price) sold on each. */
  readonly processes: number;
  readonly sold: number;
  readonly failures: readonly string[];
}

interface BuyReply {
  readonly unitIds: readonly string[];
}

/** A signed-in client of one process, and its token for the HTTP routes. */
interface Player {
  readonly endpoint: string;
  readonly token: string;
  readonly client: Client;
}

/** What went wrong, in a few words: the client's code and its message. */
function why(err: unknown): string {
  const e = err as { message?: unknown } | undefined;
  const message = typeof e?.message === 'string' ? e.message : JSON.stringify(err);
  return `${errorCode(err, 'error')}: ${message}`.slice(0, 300);
}

async function joinFeed(endpoint: string, timeoutMs: number): Promise<void> {
  const room = await joinWithin(new Client(endpoint).joinOrCreate('feed'), timeoutMs);
  room.onMessage('*', () => undefined);
  await withTimeout(room.leave(true), timeoutMs, 'leave/timeout').catch(() => undefined);
}

async function readTables(endpoint: string, timeoutMs: number): Promise<void> {
  const res = await fetch(`${endpoint}/tables`, { signal: AbortSignal.timeout(timeoutMs) });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`answered ${res.status} ${body.slice(0, 200)}`);
  if (!Array.isArray(JSON.parse(body))) throw new Error(`answered 200 without a list: ${body.slice(0, 200)}`);
}

async function signIn(endpoint: string, name: string, timeoutMs: number, operator: OperatorSignIn | undefined): Promise<Player> {
  if (operator) {
    const token = await operatorToken(operator.jwtSecret, name);
    await setHarnessStakeLimit(endpoint, token, AbortSignal.timeout(timeoutMs));
    const client = new Client(endpoint);
    client.auth.token = token;
    return { endpoint, token, client };
  }
  const res = await fetch(`${endpoint}/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`dev login answered ${res.status} ${(await res.text()).slice(0, 200)}`);
  const { token } = (await res.json()) as { token: string };
  await setHarnessStakeLimit(endpoint, token, AbortSignal.timeout(timeoutMs));
  const client = new Client(endpoint);
  client.auth.token = token;
  return { endpoint, token, client };
}

/** The unit's recall says it is finished (a reveal may end at its purchase). */
async function finished(player: Player, unitId: string, timeoutMs: number): Promise<boolean> {
  const res = await fetch(`${player.endpoint}/history/${encodeURIComponent(unitId)}`, { headers: { authorization: `Bearer ${player.token}` }, signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`its recall answered ${res.status} ${(await res.text()).slice(0, 200)}`);
  return ((await res.json()) as { status?: string }).status === 'finished';
}

/** One unit of `game` at `stake` bought on `room` and played to its end (AUTO). */
async function sellOne(player: Player, room: Room, game: GameId, stake: number, requestId: string, choices: Choices, timeoutMs: number): Promise<void> {
  const picks = rulesOf(game).demoPicks(choices.choose, 1);
  const { unitIds } = (await room.request('buy', { stake, requestId, ...(picks !== undefined ? { picks } : {}) }, { timeout: timeoutMs })) as BuyReply;
  const unitId = unitIds[0]!;
  for (const action of rulesOf(game).demoScript(choices.choose, { auto: true })) {
    if (await finished(player, unitId, timeoutMs)) return;
    await room.request('act', { action }, { timeout: timeoutMs });
  }
  if (!(await finished(player, unitId, timeoutMs))) throw new Error('the AUTO script ended before the reveal');
}

/** Every (game, price) bought and played on tables opened through `endpoint`. */
async function sellEverything(endpoint: string, name: string, timeoutMs: number, failures: string[], where: string, operator: OperatorSignIn | undefined): Promise<number> {
  let player: Player;
  try {
    player = await signIn(endpoint, name, timeoutMs, operator);
  } catch (err) {
    failures.push(`${where}: no sale tried, the sign-in failed (${why(err)})`);
    return 0;
  }
  const choices = new Choices(1);
  let sold = 0;
  for (const game of GAME_IDS) {
    let room: Room;
    try {
      room = await joinWithin(player.client.create('table', { game }), timeoutMs);
      room.onMessage('*', () => undefined);
    } catch (err) {
      failures.push(`${where}: a ${game} table could not be opened (${why(err)})`);
      continue;
    }
    for (const stake of stakesOf(game)) {
      try {
        await sellOne(player, room, game, stake, `check_${game.replace(/\W/g, '_')}_${stake}`, choices, timeoutMs);
        sold++;
      } catch (err) {
        failures.push(`${where}: ${game} at ${stake} c does not sell (${why(err)})`);
      }
    }
    await withTimeout(room.leave(true), timeoutMs, 'leave/timeout').catch(() => undefined);
  }
  return sold;
}

/**
 * Checks every process of `endpoints` in turn. `pseudonym(i)` names the player signed in on
 * process i (a valid pseudonym, new to the run), signed in by the operator's token when the
 * servers' wallet is the operator's (`operator`), else by the dev login.
 */
export async function checkEveryProcess(endpoints: readonly string[], pseudonym: (i: number) => string, timeoutMs = 10_000, operator?: OperatorSignIn): Promise<ServiceCheck> {
  const failures: string[] = [];
  let sold = 0;
  for (const [i, endpoint] of endpoints.entries()) {
    const where = `process ${i + 1} (${endpoint})`;
    await joinFeed(endpoint, timeoutMs).catch((err: unknown) => failures.push(`${where}: the wins feed cannot be joined (${why(err)})`));
    await readTables(endpoint, timeoutMs).catch((err: unknown) => failures.push(`${where}: GET /tables fails (${why(err)})`));
    sold += await sellEverything(endpoint, pseudonym(i), timeoutMs, failures, where, operator);
  }
  return { processes: endpoints.length, sold, failures };
}
