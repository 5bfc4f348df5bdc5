import type { Room } from './api';
import type { Strings } from './i18n';

export type Connection = 'connecting' | 'connected' | 'reconnecting' | 'closed';

/**
 * Connects a room's life to a connection state shown on screen; a close the page did not ask
 * for is explained when the server gave a reason (`table/flood: …`, close code 4429).
 */
export function watchConnection(room: Room, set: (c: Connection) => void, leaving: { current: boolean }, explain?: (reason: string) => void): void {
  room.onDrop(() => set('reconnecting'));
  room.onReconnect(() => set('connected'));
  room.onLeave((_code, reason) => {
    if (leaving.current) return;
    set('closed');
    if (reason && explain) explain(reason);
  });
}

export function ConnectionState({ s, state, onRejoin }: { s: Strings; state: Connection; onRejoin?: () => void }) {
  return (
    <p class={`connection connection-${state}`} role="status" data-state={state}>
      {s.connection[state]} {state === 'closed' && onRejoin && <button type="button" onClick={onRejoin}>{s.connection.rejoin}</button>}
    </p>
  );
}
