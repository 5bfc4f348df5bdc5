--[[
  Takes a player out of a shard of the pending index (keys.ts, pendingIndex) once the recovery
  found nothing of theirs pending, unless they bought since: a purchase writes its time there
  (ZADD GT) before its reservation, so a later time means a purchase the recovery did not see.

  Input:
    KEYS[1] the shard of the pending index (sorted set: playerId -> time of the latest purchase)

    ARGV[1] playerId
    ARGV[2] the time the recovery looked up to (ms since the epoch)

  Output:
    1  removed
    0  not there, or bought since
]]
local at = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not at or tonumber(at) > tonumber(ARGV[2]) then return 0 end
return redis.call('ZREM', KEYS[1], ARGV[1])
