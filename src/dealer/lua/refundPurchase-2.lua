--[[
  Ends a pending purchase that the sequence refused (unknown game, sold out): the stake held is
  released and the unit counted for "finish your unit first" is uncounted. Nothing was debited
  or journaled, so nothing is credited. The stake counted in the player's stake window at the
  hold is taken back from the bucket of its time (includes/protection). Idempotent: a repeat
  changes nothing.

  Input:
    KEYS[1] the player's wallet (hash, as in reservePurchase-4.lua)
    KEYS[2] the player's pending purchases (hash)

    ARGV[1] '<game>:<stake>|<requestId>'
    ARGV[2] stake (cents)
    ARGV[3] game

  Output:
    1  released now
    0  nothing pending under this request
]]
--- @include "includes/int"
--- @include "includes/protection"

local pending = redis.call('HGET', KEYS[2], ARGV[1])
if not pending then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
local heldAt = tonumber(string.match(pending, '^[^|]*|([^|]*)|'))
local windowField = redis.call('HGET', KEYS[1], 'p:s')
if windowField then
  local window, heldHour = readWindow(windowField), math.floor(heldAt / HOUR)
  advanceWindow(KEYS[1], 'p:s:', window, heldHour)
  takeFromWindow(KEYS[1], 'p:s:', window, heldHour, tonumber(ARGV[2]))
  redis.call('HSET', KEYS[1], 'p:s', windowText(window))
end
local inPlayField = 'n:' .. ARGV[3]
local w = redis.call('HMGET', KEYS[1], 'held', inPlayField)
local held, inPlay = tonumber(w[1] or '0') - tonumber(ARGV[2]), tonumber(w[2] or '0') - 1
if held > 0 then redis.call('HSET', KEYS[1], 'held', int(held)) else redis.call('HDEL', KEYS[1], 'held') end
if inPlay > 0 then redis.call('HSET', KEYS[1], inPlayField, int(inPlay)) else redis.call('HDEL', KEYS[1], inPlayField) end
return 1
