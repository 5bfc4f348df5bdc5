import { useEffect, useRef, useState } from 'preact/hooks';
import type { UnitView } from './table';

/**
 * Milliseconds between two events on screen. The server sends a step's events at once (AUTO:
 * the whole reveal); the page plays them at a person's speed. `?pace=0` shows them at once
 * (the browser tests use it).
 */
export const PACE_MS = (() => {
  const given = new URLSearchParams(window.location.search).get('pace');
  const ms = given === null || given === '' ? NaN : Number(given);
  return Number.isInteger(ms) && ms >= 0 && ms <= 5000 ? ms : 160;
})();

/**
 * The units with their events cut to what has been played on screen so far. Units in
 * `instant` (already on the table when the page joined: a resumed reveal, a table being
 * watched) show what they had at once. An event that comes after a quiet spell shows the moment
 * it arrives; the ones that come with it (AUTO) follow one per PACE_MS.
 */
export function usePaced(units: readonly UnitView[], instant: ReadonlySet<string>): { shown: UnitView[]; caughtUp: boolean } {
  const counts = useRef(new Map<string, number>());
  const lastShownAt = useRef(-Infinity);
  /** Nothing was waiting after the last render: the next event is new, and shows at once. */
  const wasCaughtUp = useRef(true);
  const [, tick] = useState(0);
  for (const u of units) {
    const known = counts.current.get(u.unitId);
    if (known === undefined || PACE_MS === 0) counts.current.set(u.unitId, known === undefined && !instant.has(u.unitId) && PACE_MS > 0 ? 0 : u.events.length);
  }
  const isBehind = () => units.some((u) => (counts.current.get(u.unitId) ?? 0) < u.events.length);
  const now = performance.now();
  if (isBehind() && (wasCaughtUp.current || now - lastShownAt.current >= PACE_MS)) {
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
    const timer = setTimeout(() => tick((t) => t + 1), Math.max(0, lastShownAt.current + PACE_MS - performance.now()));
    return () => clearTimeout(timer);
  });
  const shown = units.map((u) => {
    const n = counts.current.get(u.unitId) ?? 0;
    const done = n >= u.events.length;
    return { ...u, events: u.events.slice(0, n), status: done ? u.status : 'in_progress', prize: done ? u.prize : 0 };
  });
  return { shown, caughtUp: !behind };
}
