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
--- @include "../../redis-scripts/lua/int"
--- @include "../../protection/lua/includes/protection"

local pending = redis.call('HGET', KEYS[2], ARGV[1])
if not pending then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
local heldAt = tonumber(string.match(pending, '^[^|]*|([^|]*)|'))
local inPlayField = 'n:' .. ARGV[3]
dropAllowance(KEYS[1])
local w = redis.call('HMGET', KEYS[1], 'held', inPlayField, windowFields('p:s'))
local held, inPlay = tonumber(w[1] or '0') - tonumber(ARGV[2]), tonumber(w[2] or '0') - 1
-- What is left above zero is written in one HSET, what reached zero deleted in one HDEL.
local writes, gone = {}, {}
local function keep(field, value)
  if value > 0 then
    writes[#writes + 1] = field
    writes[#writes + 1] = int(value)
  else
    gone[#gone + 1] = field
  end
end
keep('held', held)
keep(inPlayField, inPlay)
if w[6] then
  local window, heldHour = windowOf(w[3], w[4], w[5], w[6]), math.floor(heldAt / HOUR)
  advanceWindow(KEYS[1], 'p:s', window, heldHour)
  takeFromWindow(KEYS[1], 'p:s', window, heldHour, tonumber(ARGV[2]))
  windowWrites('p:s', window, writes)
end
if #writes > 0 then redis.call('HSET', KEYS[1], unpack(writes)) end
if #gone > 0 then redis.call('HDEL', KEYS[1], unpack(gone)) end
return 1
