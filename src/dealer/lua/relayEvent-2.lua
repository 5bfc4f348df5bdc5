--[[
  Adds an event the buyer's slot recorded (creditPrize-5.lua, on Redis Cluster) to the
  operator's events, once per event: the store may relay the same event again (a settlement
  cut after the relay and completed again), so each event's key is remembered for the
  idempotency window of its time.

  Input:
    KEYS[1] the operator's events (stream: field e -> includes/thresholdEvent)
    KEYS[2] the events relayed in the window of the event's time (hash: key -> stream id);
            expires 2 W after the window began

    ARGV[1] the event's key: '<playerId>|<unitId>'
    ARGV[2] the event (includes/thresholdEvent)
    ARGV[3] time to live of KEYS[2] in ms

  Output:
    1  added now
    0  added before: nothing changed
]]
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
local id = redis.call('XADD', KEYS[1], '*', 'e', ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], id)
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
