import { Client, type Room } from '@colyseus/sdk';
import { loadConfig } from '../../src/config';
import { decodeStep } from '../../src/games/step-codec';
import { startServer, type RunningServer, type StartOptions } from '../../src/server/app';
import { createLogger } from '../../src/server/logger';
import { freePort } from '../../tools/redis-server';
import { setHarnessStakeLimit } from '../../tools/stake-limit';

/** An embedded (or Redis) server on a free port, for one test file; stop it in `after`. */
export async function startTestServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<RunningServer> {
  // Every test player logs in from 127.0.0.1: the per-address limit has its own test. Tests
  // play at once unless they set the pace (the pacing's own tests do).
  const config = loadConfig({ PORT: '0', EMISSION_BLOCKS: '2', DEV_LOGIN_PER_MINUTE: '100000', PACE_UNIT_MS: '0', PACE_STEP_MS: '0', ...env });
  return startServer(config, { logger: createLogger('silent'), ...options });
}

/**
 * A server on a port chosen before it starts, for settings that name it (PUBLIC_ADDRESS): another
 * port when something took that one meanwhile (the start then fails at once, EADDRINUSE).
 */
export async function startTestServerOnItsPort(env: (port: number) => Record<string, string>): Promise<RunningServer> {
  for (let tries = 1; ; tries++) {
    const port = await freePort();
    try {
      return await startTestServer({ ...env(port), PORT: String(port) });
    } catch (err) {
      if (tries === 3 || !/EADDRINUSE/.test((err as Error).message)) throw err;
    }
  }
}

export interface TestPlayer {
  readonly token: string;
  readonly playerId: string;
  readonly client: InstanceType<typeof Client>;
}

export async function devLogin(server: Pick<RunningServer, 'port'>, name = 'Alice'): Promise<TestPlayer> {
  const res = await fetch(`http://127.0.0.1:${server.port}/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (!res.ok) throw new Error(`dev login: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: string; playerId: string };
  await setHarnessStakeLimit(`http://127.0.0.1:${server.port}`, body.token);
  const client = new Client(`http://127.0.0.1:${server.port}`);
  client.auth.token = body.token;
  return { token: body.token, playerId: body.playerId, client };
}

/** Everything a client received: messages by type, in order, as they arrived. */
export interface Recorder {
  readonly messages: { type: string | number; payload: unknown }[];
  /** Resolves with the next message of `type` (or one already received after `since`). */
  next(type: string, since?: number): Promise<unknown>;
}

export function record(room: Room): Recorder {
  const messages: { type: string | number; payload: unknown }[] = [];
  const waiters: { type: string; since: number; resolve: (p: unknown) => void }[] = [];
  room.onMessage('*', (type, payload) => {
    messages.push({ type, payload });
    for (const w of waiters.splice(0)) {
      const hit = messages.slice(w.since).find((m) => m.type === w.type);
      if (hit) w.resolve(hit.payload);
      else waiters.push(w);
    }
  });
  return {
    messages,
    next(type, since = 0) {
      const hit = messages.slice(since).find((m) => m.type === type);
      if (hit) return Promise.resolve(hit.payload);
      return new Promise((resolve) => waiters.push({ type, since, resolve }));
    },
  };
}

/** The client's decoded view of its table: units and the events of each step. */
export interface DecodedUnit {
  unitId: string;
  status: string;
  prize: number;
  steps: { seq: number; by: string; events: { type: string }[] }[];
}

export function decodedUnits(room: Room): DecodedUnit[] {
  const state = room.state as { units: Iterable<{ unitId: string; status: string; prize: number; steps: Iterable<string> }> };
  return [...state.units].map((u) => ({
    unitId: u.unitId,
    status: u.status,
    prize: u.prize,
    steps: [...u.steps].map((s, seq) => ({ seq, ...decodeStep(s) })),
  }));
}

/** Waits until `check` holds on the room's state (patches arrive asynchronously). */
export async function until(room: Room, check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  if (check()) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
    const listener = () => {
      if (check()) {
        clearTimeout(timer);
        room.onStateChange.remove(listener);
        resolve();
      }
    };
    room.onStateChange(listener);
  });
}
