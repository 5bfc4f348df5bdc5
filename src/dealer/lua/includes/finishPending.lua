--[[
  The player's last step of a purchase on Redis Cluster (finishPurchase-4, creditPrize-4):
  the reservation `field` (<game>:<stake>|<requestId>) of hash `pending` becomes the sale of
  `unitId`: the stake held is debited, the unit is in play (u:<unitId> in the wallet, its stake
  added to `staked`; its game was counted at the reservation), the debit is journaled, and the request id remembers the
  unit (hash `requests` of the purchase's window). False when there is no such reservation
  (finished or refunded before): nothing changes.
]]
local function finishPending(wallet, pending, journal, requests, field, unitId, stake, soldAt, ttl)
  if redis.call('HDEL', pending, field) == 0 then return false end
  local w = redis.call('HMGET', wallet, 'balance', 'held', 'staked')
  local after = tonumber(w[1] or '0') - stake
  local held = tonumber(w[2] or '0') - stake
  redis.call('HSET', wallet, 'balance', int(after), 'u:' .. unitId, soldAt, 'staked', int(tonumber(w[3] or '0') + stake))
  if held > 0 then redis.call('HSET', wallet, 'held', int(held)) else redis.call('HDEL', wallet, 'held') end
  redis.call('RPUSH', journal, journalLine('stake', int(-stake), int(after), soldAt, unitId))
  redis.call('HSET', requests, field, unitId)
  redis.call('PEXPIRE', requests, ttl)
  return true
end
