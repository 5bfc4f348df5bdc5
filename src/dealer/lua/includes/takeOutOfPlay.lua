--[[
  Takes a unit out of play in its buyer's wallet, once (settleUnit-7.lua, creditPrize-5.lua):
  removes u:<unitId>, uncounts it from n:<game> and its stake from `staked` (the running total
  of the stakes of the units in play, what the player is shown as held). Returns whether it was
  in play. Both counts are dropped at zero or below rather than kept negative: a wallet whose
  units were bought before `staked` existed never counted them.
]]
local function takeOutOfPlay(wallet, unitId, game, stake)
  if redis.call('HDEL', wallet, 'u:' .. unitId) == 0 then return false end
  local inPlay = 'n:' .. game
  if redis.call('HINCRBY', wallet, inPlay, -1) <= 0 then redis.call('HDEL', wallet, inPlay) end
  if redis.call('HINCRBY', wallet, 'staked', -stake) <= 0 then redis.call('HDEL', wallet, 'staked') end
  return true
end
