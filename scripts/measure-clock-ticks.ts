/**
 * `npm run measure:clock-ticks [-- --rooms 250 --seconds 10 --rounds 3]`: what ticking the rooms'
 * clocks costs a process with nothing else to do (docs/performance.md, "The rooms'
 * clock"). `--rooms` clocks, each with a 2 s interval of its own (a table's heartbeat), ticked
 * every 250 ms, two ways, alternating:
 * - per room: an interval of each room's own, as Colyseus's `setTimestep` makes it, started when
 *   the room is made (here the rooms are made over 250 ms, as players come in);
 * - shared: one `ClockTicker` (src/rooms/clock-ticker.ts) ticking them all.
 * Timed by the process's own CPU (`process.cpuUsage`) over `--seconds`; prints the medians in
 * ms of CPU a second and, last, the same as JSON.
 */
import type { Room } from '@colyseus/core';
import { ClockTimer } from '@colyseus/timer';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClockTicker } from '../src/rooms/clock-ticker';
import { optionsOrExit, whole } from '../tools/command-line';
import { median } from '../tools/median';

const { rooms: ROOMS, seconds: SECONDS, rounds: ROUNDS } = optionsOrExit<{ rooms: number; seconds: number; rounds: number }>({
  synopsis: 'npm run measure:clock-ticks -- [--rooms 250] [--seconds 10] [--rounds 3]',
  defaults: { rooms: 250, seconds: 10, rounds: 3 },
  flags: [
    { name: '--rooms', value: 'N', help: 'rooms whose clocks tick (default 250)', set: (o, v) => (o.rooms = whole(v, 1, 100_000)) },
    { name: '--seconds', value: 'S', help: 'seconds measured per way and round (default 10)', set: (o, v) => (o.seconds = whole(v, 1, 600)) },
    { name: '--rounds', value: 'N', help: 'rounds, the two ways alternating (default 3)', set: (o, v) => (o.rounds = whole(v, 1, 100)) },
  ],
});
const TICK_MS = 250;

/** A room as the ticker sees it: a clock with a heartbeat, a timestep and a patch rate. */
function room(): Room {
  const clock = new ClockTimer();
  clock.setInterval(() => undefined, 2000);
  return { clock, setTimestep: () => undefined, patchRate: null } as unknown as Room;
}

/** The rooms made over one tick, each starting its own interval (Colyseus's timestep). */
async function perRoom(rooms: Room[]): Promise<() => void> {
  const intervals: NodeJS.Timeout[] = [];
  for (const r of rooms) {
    intervals.push(setInterval(() => r.clock.tick(), TICK_MS));
    await sleep(TICK_MS / rooms.length);
  }
  return () => intervals.forEach(clearInterval);
}

async function shared(rooms: Room[]): Promise<() => void> {
  const ticker = new ClockTicker(TICK_MS);
  for (const r of rooms) ticker.add(r);
  return () => rooms.forEach((r) => r.clock.stop());
}

/** ms of CPU a second the process spends over the window, ticking `rooms` one way. */
async function measure(way: typeof perRoom): Promise<number> {
  const rooms = Array.from({ length: ROOMS }, room);
  const stop = await way(rooms);
  await sleep(1000); // settled: every interval started
  const start = process.cpuUsage();
  await sleep(SECONDS * 1000);
  const used = process.cpuUsage(start);
  stop();
  await sleep(2 * TICK_MS); // the shared ticker lets its interval go
  return (used.user + used.system) / 1000 / SECONDS;
}

const figures = { perRoom: [] as number[], shared: [] as number[] };
for (let round = 1; round <= ROUNDS; round++) {
  figures.perRoom.push(await measure(perRoom));
  figures.shared.push(await measure(shared));
  process.stderr.write(`round ${round}/${ROUNDS}: per room ${figures.perRoom.at(-1)!.toFixed(1)}, shared ${figures.shared.at(-1)!.toFixed(1)} ms of CPU a second\n`);
}
const result = { rooms: ROOMS, tickMs: TICK_MS, cpuMsPerSecond: { perRoom: median(figures.perRoom), shared: median(figures.shared) } };
console.log(`${ROOMS} rooms ticked every ${TICK_MS} ms, nothing else to do: ${result.cpuMsPerSecond.perRoom.toFixed(1)} ms of CPU a second with an interval per room, ${result.cpuMsPerSecond.shared.toFixed(1)} with one for all (medians of ${ROUNDS})`);
console.log(JSON.stringify(result));
