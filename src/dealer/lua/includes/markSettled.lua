--[[
  The sequence's half of settling a unit (settleUnit-7.lua on one Redis, settleSale-3.lua on a
  cluster): the sale's buyer must be `playerId`; the unit is marked settled once and leaves the
  sequence's unsettled units. Returns nil (no such sale of that player), or whether it was
  settled now and the prize (a number).
]]
local function markSettled(sales, settled, unsettled, position, unitId, playerId, now)
  local sale = redis.call('HGET', sales, position)
  if not sale then return nil end
  local player, prize = saleBuyerAndPrize(sale)
  if player ~= playerId then return nil end
  if redis.call('HSETNX', settled, position, now) == 0 then return false, prize end
  redis.call('ZREM', unsettled, unitId)
  return true, prize
end
