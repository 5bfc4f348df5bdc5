import type { ArchiveOutbox } from '../dealer/outbox';

/**
 * How far the archive is behind the dealer: the age, in ms, of the oldest entry waiting in the
 * outbox (its record's time); 0 when none waits. The writer trims what it sealed, so this grows
 * while no writer drains (it is stopped, or cannot reach Redis or its disk) and falls back to
 * about the seal period once one drains again.
 */
export async function archiveLagMs(outbox: ArchiveOutbox, now: number): Promise<number> {
  const firsts = await Promise.all(outbox.streams.map((stream) => outbox.read(stream, undefined, 1)));
  return Math.max(0, ...firsts.flatMap(([first]) => (first === undefined ? [] : [now - first.at])));
}
