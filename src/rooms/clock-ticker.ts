import type { Room } from '@colyseus/core';

/** The longest delay a Node timer takes (2³¹ − 1 ms, ≈ 24.8 days): a timestep that never comes. */
const NEVER_MS = 2 ** 31 - 1;

/**
 * One interval ticks the clocks of many rooms. Colyseus's timestep is an interval per room,
 * started when the room is made, so each room's tick falls at its own moment: 250 tables ticking
 * every 250 ms woke the process about 1,000 times a second, each wake a system call and a turn
 * of the event loop for nearly nothing (docs/lab/performance.md, "One clock for the rooms"). Here the
 * rooms' clocks all tick in one turn. A room stops being ticked once Colyseus has stopped its
 * clock (the room is disposed).
 */
export class ClockTicker {
  private readonly rooms = new Set<Room>();
  private interval: NodeJS.Timeout | undefined;

  constructor(private readonly everyMs: number) {}

  /**
   * Ticks `room`'s clock from now on, and turns its own timers off: a timestep that never fires
   * stands for the per-room one (without a timestep, `patchRate = null` would start a 60 Hz tick
   * of its own), and patches go out only when the room sends them.
   */
  add(room: Room): void {
    room.setTimestep(() => undefined, NEVER_MS);
    room.patchRate = null;
    this.rooms.add(room);
    // Unreferenced: the ticks alone do not keep a process alive (its server does).
    this.interval ??= setInterval(() => this.tick(), this.everyMs).unref();
  }

  /** How many rooms it ticks. */
  get size(): number {
    return this.rooms.size;
  }

  private tick(): void {
    for (const room of this.rooms) {
      if (room.clock.running) room.clock.tick();
      else this.rooms.delete(room);
    }
    if (this.rooms.size === 0) {
      clearInterval(this.interval);
      this.interval = undefined;
    }
  }
}
