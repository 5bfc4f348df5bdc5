// A negative control of the chaos run (`npm run chaos -- --negative-control kept-room-list-failure`),
// loaded into every server process with `node --import` and never by the server itself: it puts
// back the fault of @colyseus/redis-driver 0.18 that src/server/room-driver.ts works around.
// Once one read of the room listing has failed (during a Redis outage), every later read of that
// process is answered with that failure, as the driver's kept pending request did, so the feed
// cannot be joined and `GET /tables` fails until the process restarts. The run must then fail
// its check after the faults (loadtest/chaos/service-check.ts).
import { RedisDriver } from '@colyseus/redis-driver';

const getRooms = RedisDriver.prototype.getRooms;
/** Per driver, the first read that failed. */
const kept = new WeakMap();

RedisDriver.prototype.getRooms = function keepingFailures(roomName) {
  const failed = kept.get(this);
  if (failed) return failed;
  const request = getRooms.call(this, roomName);
  request.catch(() => {
    if (!kept.has(this)) kept.set(this, request);
  });
  return request;
};
