import { useEffect, useRef, useState } from 'preact/hooks';
import type { Room } from './api';
import type { Strings } from './i18n';

export type Connection = 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** The server closed the room on purpose (flood, a watcher sent away): coming back is the person's choice. */
const CONSENTED = 4000;
const FLOODED = 4429;
/** The player's token expired: the server closed the table (`auth/expired: …`); only a new sign-in helps. */
const EXPIRED = 4401;
/** The operator ended the player's session (`auth/session_ended: …`): only a new launch helps. */
const SESSION_ENDED = 4403;
/** Our back-off between two joins: 0.5 s, 1 s, 2 s… at most 10 s. */
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 10_000;

export interface LiveRoom {
  readonly room: Room | undefined;
  readonly connection: Connection;
  /** Seconds until the next join, while reconnecting. */
  readonly retryIn: number | undefined;
  /** Joins again now (the « Revenir » button after a close). */
  readonly rejoin: () => void;
}

/**
 * A room kept alive: after a dropped connection the page joins again with back-off, for as long
 * as it shows the room, given the room that dropped (a table is joined again by its id: the same
 * seat). The SDK's own reconnection is off: it sends a reconnection token in the WebSocket's URL,
 * which the server refuses. `fatal` says which failures are final (a refused or expired token);
 * `closed` is told why the server closed the room on purpose, and nothing is retried then.
 */
export function useLiveRoom(join: (dropped: Room | undefined) => Promise<Room>, attach: (room: Room, rejoined: boolean) => void, options: {
  readonly deps: readonly unknown[];
  readonly fatal?: (err: unknown) => boolean;
  readonly closed?: (reason: string | undefined) => void;
}): LiveRoom {
  const [room, setRoom] = useState<Room | undefined>();
  const [connection, setConnection] = useState<Connection>('connecting');
  const [retryIn, setRetryIn] = useState<number | undefined>();
  const [generation, setGeneration] = useState(0);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    let stopped = false;
    let current: Room | undefined;
    let dropped: Room | undefined;
    let attempt = 0;
    let joinedOnce = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let countdown: ReturnType<typeof setInterval> | undefined;
    const retry = () => {
      setConnection('reconnecting');
      const delay = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt++);
      const due = Date.now() + delay;
      setRetryIn(Math.ceil(delay / 1000));
      clearInterval(countdown);
      countdown = setInterval(() => setRetryIn(Math.max(0, Math.ceil((due - Date.now()) / 1000))), 1000);
      timer = setTimeout(connect, delay);
    };
    const connect = () => {
      join(dropped).then((r) => {
        if (stopped) return void r.leave();
        current = r;
        dropped = undefined;
        attempt = 0;
        clearInterval(countdown);
        setRetryIn(undefined);
        r.reconnection.enabled = false;
        attach(r, joinedOnce);
        joinedOnce = true;
        r.onLeave((code, reason) => {
          if (stopped || r !== current) return;
          setRoom(undefined);
          if ((code === EXPIRED || code === SESSION_ENDED) && latest.current.fatal?.(new Error(reason))) {
            setConnection('closed');
          } else if (code === CONSENTED || code === FLOODED) {
            setConnection('closed');
            latest.current.closed?.(reason);
          } else {
            dropped = r;
            retry();
          }
        });
        setRoom(r);
        setConnection('connected');
      }, (err: unknown) => {
        if (stopped) return;
        if (latest.current.fatal?.(err)) setConnection('closed');
        else retry();
      });
    };
    setConnection('connecting');
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      clearInterval(countdown);
      void current?.leave();
    };
  }, [...options.deps, generation]);

  return { room, connection, retryIn, rejoin: () => setGeneration((g) => g + 1) };
}

export function ConnectionState({ s, live, onRejoin }: { s: Strings; live: Pick<LiveRoom, 'connection' | 'retryIn'>; onRejoin?: () => void }) {
  const { connection, retryIn } = live;
  return (
    <p class={`connection connection-${connection}`} role="status" data-state={connection}>
      <span class="connection-dot" aria-hidden="true" />
      {connection === 'reconnecting' && retryIn !== undefined && retryIn > 0 ? s.reconnectIn(retryIn) : s.connection[connection]}
      {connection === 'closed' && onRejoin && <button type="button" class="small" onClick={onRejoin}>{s.connection.rejoin}</button>}
    </p>
  );
}
