import { strict as assert } from 'node:assert';
import type { Room } from '@colyseus/core';
import { ClockTimer } from '@colyseus/timer';
import { ClockTicker } from '../../src/rooms/clock-ticker';

/** What the ticker touches of a room: its clock, its timestep and its patch rate. */
function fakeRoom() {
  const room = { clock: new ClockTimer(), timestepMs: undefined as number | undefined, patchRate: 50 as number | null };
  return Object.assign(room, { setTimestep: (_tick: unknown, ms: number) => (room.timestepMs = ms) });
}

const asRoom = (room: ReturnType<typeof fakeRoom>) => room as unknown as Room;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('clock ticker', () => {
  it('ticks the clock of every room it holds, so that their timers fire', async () => {
    const ticker = new ClockTicker(10);
    const rooms = [fakeRoom(), fakeRoom(), fakeRoom()];
    const fired: number[] = [];
    rooms.forEach((room, i) => {
      room.clock.setTimeout(() => fired.push(i), 30);
      ticker.add(asRoom(room));
    });
    await sleep(120);
    assert.deepEqual(fired.sort(), [0, 1, 2]);
    for (const room of rooms) room.clock.stop();
  });

  it("turns the room's own timers off: a timestep that never fires, no patch timer", () => {
    const ticker = new ClockTicker(10);
    const room = fakeRoom();
    ticker.add(asRoom(room));
    assert.equal(room.timestepMs, 2 ** 31 - 1, 'the longest delay a Node timer takes');
    assert.equal(room.patchRate, null);
    room.clock.stop();
  });

  it('lets go of a room once its clock is stopped (disposed), and of its interval with the last one', async () => {
    const ticker = new ClockTicker(10);
    const [a, b] = [fakeRoom(), fakeRoom()];
    ticker.add(asRoom(a));
    ticker.add(asRoom(b));
    a.clock.stop();
    const before = b.clock.elapsedTime;
    await sleep(50);
    assert.equal(ticker.size, 1, 'the stopped room is dropped');
    assert.ok(b.clock.elapsedTime > before, 'the other one still ticks');
    b.clock.stop();
    await sleep(50);
    assert.equal(ticker.size, 0);
    // Added again after it stopped: it ticks again.
    const c = fakeRoom();
    let fired = false;
    c.clock.setTimeout(() => (fired = true), 20);
    ticker.add(asRoom(c));
    await sleep(80);
    assert.ok(fired, 'a room added after the interval stopped is ticked');
    c.clock.stop();
  });
});
