--[[
  Settles a sold unit once: marks it settled, takes it out of the units in play and credits its
  prize (journal line only when the prize is above 0). A repeat changes nothing.

  Input:
    KEYS[1] the block's sales (hash: position -> sale record, includes/saleRecord)
    KEYS[2] the block's settlements (hash: position -> settlement time)
    KEYS[3] the sequence's unsettled units (sorted set)
    KEYS[4] the buyer's wallet (hash: balance; u:<unitId> for each unit not settled;
            n:<game> how many of them are of that game)
    KEYS[5] the buyer's journal (list)

    ARGV[1] position
    ARGV[2] unitId
    ARGV[3] playerId the caller read from the sale (the wallet keys are that player's)
    ARGV[4] now (ms since the epoch)
    ARGV[5] the unit's game

  Journal line (includes/journalLine): prize|<prize>|<balance after>|<now>|<unitId>

  Output:
    {1, prize, balance}  settled now (credited when prize > 0)
    {0, prize, balance}  settled before: nothing changed
    {-5}                 no such sale, or it is not that player's
]]
--- @include "includes/int"
--- @include "includes/journalLine"
--- @include "includes/saleRecord"
--- @include "includes/markSettled"

local settledNow, prize = markSettled(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
if settledNow == nil then return {-5} end
if not settledNow then return {0, prize, tonumber(redis.call('HGET', KEYS[4], 'balance') or '0')} end
if redis.call('HDEL', KEYS[4], 'u:' .. ARGV[2]) == 1 then
  local inPlay = 'n:' .. ARGV[5]
  if redis.call('HINCRBY', KEYS[4], inPlay, -1) <= 0 then redis.call('HDEL', KEYS[4], inPlay) end
end
local balance = tonumber(redis.call('HGET', KEYS[4], 'balance') or '0')
if prize > 0 then
  balance = balance + prize
  redis.call('HSET', KEYS[4], 'balance', int(balance))
  redis.call('RPUSH', KEYS[5], journalLine('prize', int(prize), int(balance), ARGV[4], ARGV[2]))
end
return {1, prize, balance}
