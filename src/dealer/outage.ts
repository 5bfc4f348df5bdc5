/** What a client is told when the store cannot be reached (`server/unavailable`). */
export const OUTAGE_SENTENCE = 'the server cannot reach its store right now: try again in a moment';

/**
 * Whether `err` says the store could not be reached (Redis down, frozen, or restarting) rather
 * than that the request itself was wrong: ioredis's own errors for a command that timed out
 * (REDIS_COMMAND_TIMEOUT_MS), a connection that closed under it (a pipeline in flight is
 * aborted), or a retry limit reached while reconnecting; on a Redis Cluster during a failover, a
 * slot without a master (CLUSTERDOWN, TRYAGAIN, every node failing), a write sent to a master
 * just demoted (READONLY), a redirection ioredis gave up following (MOVED, ASK: a node that had
 * not heard of the failover yet refused the command, so it did not run); a write no replica
 * acknowledged in time (NOREPLICAS: WAIT, redis/context.ts). What the command did is then
 * unknown: a purchase retried with the same request id is answered with the same units,
 * charged once.
 */
export function isStoreOutage(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'MaxRetriesPerRequestError' || err.name === 'ClusterAllFailedError') return true;
  const code = (err as { code?: unknown }).code;
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'ETIMEDOUT') return true;
  return /^(Command timed out|Command aborted due to connection close|Connection is closed|Stream isn't writeable|LOADING |MASTERDOWN |NOREPLICAS |CLUSTERDOWN |TRYAGAIN |READONLY |MOVED |ASK |Too many Cluster redirections|Failed to refresh slots cache)/.test(err.message);
}
