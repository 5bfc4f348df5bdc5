import { Client, type Room } from '@colyseus/sdk';
import type { Win } from '../../src/protocol/feed';
import type { RefusalMessage } from '../../src/protocol/refusals';
import type { RunningServer } from '../../src/server/app';
import { decodedUnits, until, type Recorder } from '../support/game-server';

/** A client without any token: what a spectator is. */
export function anonymous(server: RunningServer | { port: number }): InstanceType<typeof Client> {
  return new Client(`http://127.0.0.1:${server.port}`);
}

let requestCounter = 0;
export const nextRequestId = (prefix = 'w') => `${prefix}_${Date.now()}_${++requestCounter}`;

/** What a rejected request or join says, as one string to match codes against. */
export function reasonOf(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown; data?: unknown };
  return `${String(e?.code)} ${String(e?.message)} ${JSON.stringify(err)} ${JSON.stringify(e?.data ?? null)}`;
}

/**
 * Plays one lamp unit (one colour pick) to its end in two rubs, calling `between` after the
 * first rub (reveal under way) and returning the finished unit's prize.
 */
export async function playLampUnit(room: Room, between?: () => Promise<void>): Promise<{ unitId: string; prize: number }> {
  const { unitIds } = (await room.request('buy', { stake: 50, requestId: nextRequestId('lamp'), picks: [{ kind: 'colour', choice: 'gold' }] })) as { unitIds: string[] };
  const unitId = unitIds[0]!;
  await until(room, () => decodedUnits(room)[0]?.unitId === unitId, 'the unit on the table');
  await room.request('act', { action: { type: 'rub', progress: 50 } });
  await until(room, () => decodedUnits(room)[0]!.steps.length === 2, 'the first rub');
  if (between) await between();
  await room.request('act', { action: { type: 'rub', progress: 100 } });
  await until(room, () => decodedUnits(room)[0]!.status === 'finished', 'the lamp to open');
  return { unitId, prize: decodedUnits(room)[0]!.prize };
}

/** The `wins` messages a feed spectator got, each as its list of wins. */
export function winBatches(rec: Recorder): Win[][] {
  return rec.messages.filter((m) => m.type === 'wins').map((m) => (m.payload as { wins: Win[] }).wins);
}

/** The wins a feed spectator got in `wins` messages, in the order they came. */
export const winsReceived = (rec: Recorder): Win[] => winBatches(rec).flat();

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Buys a unit and reveals it whole (AUTO), so that the table's next purchase is not held by
 * "finish your unit first"; the refusal if refused.
 */
export async function buyAndFinish(room: Room, stake: number, requestId: string): Promise<RefusalMessage | undefined> {
  try {
    await room.request('buy', { stake, requestId });
  } catch (err) {
    return (err as { reason?: RefusalMessage }).reason ?? (err as RefusalMessage);
  }
  // A reveal may end at its purchase (a Mine d'or grid without EXTRA): nothing left to act on.
  await room.request('act', { action: { type: 'auto' } }).catch((err: { reason?: RefusalMessage }) => {
    if (err.reason?.code !== 'action/no_unit') throw err;
  });
  return undefined;
}

/** Leaves a room if it is still connected (the SDK's leave() never settles on a closed one). */
export async function leaveQuietly(room: Room | undefined): Promise<void> {
  if (!room?.connection?.isOpen) return;
  await Promise.race([room.leave().catch(() => undefined), sleep(2000)]);
}

/** Polls `check` until it holds (for things that arrive by HTTP or with a delay). */
export async function eventually<T>(read: () => Promise<T> | T, check: (value: T) => boolean, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: last ${JSON.stringify(value)}`);
    await sleep(50);
  }
}
