import { useEffect, useRef, useState } from 'preact/hooks';
import type { UnitView } from './table';

/**
 * The units with their events cut to what has been played on screen so far. The server sends a
 * step's events at once (AUTO: the whole reveal); the page plays them at the game's pace, the
 * server's (`GameCatalogEntry.pace.stepMs`: nothing in the page's address changes it). Units in
 * `instant` (already on the table when the page joined: a resumed reveal, a table being
 * watched) show what they had at once. An event that comes after a quiet spell shows the moment
 * it arrives; the ones that come with it (AUTO) follow one per `paceMs`.
 */
export function usePaced(units: readonly UnitView[], instant: ReadonlySet<string>, paceMs: number): { shown: UnitView[]; caughtUp: boolean } {
  const counts = useRef(new Map<string, number>());
  const lastShownAt = useRef(-Infinity);
  /** Nothing was waiting after the last render: the next event is new, and shows at once. */
  const wasCaughtUp = useRef(true);
  const [, tick] = useState(0);
  for (const u of units) {
    const known = counts.current.get(u.unitId);
    if (known === undefined || paceMs === 0) counts.current.set(u.unitId, known === undefined && !instant.has(u.unitId) && paceMs > 0 ? 0 : u.events.length);
  }
  const isBehind = () => units.some((u) => (counts.current.get(u.unitId) ?? 0) < u.events.length);
  const now = performance.now();
  if (isBehind() && (wasCaughtUp.current || now - lastShownAt.current >= paceMs)) {
    for (const u of units) {
      const n = counts.current.get(u.unitId) ?? 0;
      if (n < u.events.length) counts.current.set(u.unitId, n + 1);
    }
    lastShownAt.current = now;
  }
  const behind = isBehind();
  wasCaughtUp.current = !behind;
  useEffect(() => {
    if (!behind) return;
    const timer = setTimeout(() => tick((t) => t + 1), Math.max(0, lastShownAt.current + paceMs - performance.now()));
    return () => clearTimeout(timer);
  });
  const shown = units.map((u) => {
    const n = counts.current.get(u.unitId) ?? 0;
    const done = n >= u.events.length;
    return { ...u, events: u.events.slice(0, n), status: done ? u.status : 'in_progress', prize: done ? u.prize : 0 };
  });
  return { shown, caughtUp: !behind };
}
