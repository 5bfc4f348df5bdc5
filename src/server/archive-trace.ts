import { hostname } from 'node:os';
import type { ArchiveOutbox, OutboxValue } from '../dealer/outbox';
import type { TableTrace } from '../rooms/table-room';

/** The most of a message or reply a record keeps as sent; longer, its length alone (a hostile client's flood). */
const MAX_TRACED_CHARS = 2048;

/** A client's value as JSON the archive can hold: cut to its length when too long or not JSON. */
function bounded(value: unknown): OutboxValue {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) return { unserializable: true };
  return text.length <= MAX_TRACED_CHARS ? (JSON.parse(text) as OutboxValue) : { chars: text.length };
}

/**
 * The tables' exchanges for the archive's `play` stream (docs/archive.md): appended by this
 * process after the fact, so, unlike money, best effort: an append that fails is logged. What
 * the client sent and was answered is bounded; the steps shown (`shown`, the server's own wire
 * texts, as long as the game's reveal makes them) are kept whole: they are what the player saw.
 */
export function archiveTrace(outbox: ArchiveOutbox, now: () => number, logError: (err: unknown) => void): TableTrace {
  const process = `${hostname()}:${globalThis.process.pid}`;
  return ({ kind, player, session, table, payload, shown }) => {
    const kept: Record<string, OutboxValue> = Object.fromEntries(Object.entries(payload).map(([key, value]) => [key, bounded(value)]));
    if (shown) kept['shown'] = shown.map(({ unit, seq, steps }) => ({ unit, seq, steps }));
    outbox.append({ at: now(), kind, player, session, table, process, payload: kept }).catch(logError);
  };
}
