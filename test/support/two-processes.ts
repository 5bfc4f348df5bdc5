import { strict as assert } from 'node:assert';
import type { Room } from '@colyseus/sdk';
import type { Redis } from 'ioredis';
import { leaveQuietly } from '../rooms/helpers';

/** Which process holds a room: the address the matchmaker lists it at. */
async function hostOf(reader: Redis, roomId: string): Promise<string> {
  return (JSON.parse((await reader.hget('roomcaches', roomId))!) as { publicAddress: string }).publicAddress;
}

/**
 * A table of `games[0]` opened on process 0 and one of `games[1]` on process 1: the matchmaker
 * may place a room on either, so the second is opened again until it sits on the other process.
 */
export async function tablesOnTwoProcesses(reader: Redis, open: (process: number, game: string) => Promise<Room>, games: readonly [string, string]): Promise<[Room, Room]> {
  const a = await open(0, games[0]);
  let b = await open(1, games[1]);
  for (let tries = 0; (await hostOf(reader, a.roomId)) === (await hostOf(reader, b.roomId)); tries++) {
    assert.ok(tries < 5, 'the two tables on two processes');
    await leaveQuietly(b);
    b = await open(tries % 2, games[1]);
  }
  return [a, b];
}
