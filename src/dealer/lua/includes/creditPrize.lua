--[[
  A prize credited to the player's wallet: the balance raised, the prize's journal line pushed
  and written to the regulator's archive (includes/archiveEntry), and the withdrawal threshold's
  event (includes/thresholdEvent) when the credit takes the balance above it. Shared by
  settleUnit-7.lua (one Redis) and creditPrize-5.lua (the player's step on a Redis Cluster),
  which each keep the event where their protocol does.
    creditPrize(wallet, journal, archive, playerId, balance, prize, now, unitId, game, threshold)
  Returns the balance after and the event (nil: none).
]]
--- @include "../../redis-scripts/lua/int"
--- @include "includes/journalLine"
--- @include "includes/archiveEntry"
--- @include "includes/thresholdEvent"

local function creditPrize(wallet, journal, archive, playerId, balance, prize, now, unitId, game, threshold)
  local after = balance + prize
  redis.call('HSET', wallet, 'balance', int(after))
  local line = journalLine('prize', int(prize), int(after), now, unitId)
  redis.call('RPUSH', journal, line)
  archiveEntry(archive, playerId, line, game)
  return after, thresholdEvent(playerId, balance, after, threshold, now)
end
