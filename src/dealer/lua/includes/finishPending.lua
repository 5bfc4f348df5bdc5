--[[
  The player's last step of a purchase on Redis Cluster (finishPurchase-5, creditPrize-5):
  the reservation `field` (<game>:<stake>|<requestId>) of hash `pending` becomes the sale of
  `unitId`: the stake held is debited, the unit is in play (u:<unitId> in the wallet, its stake
  added to `staked`; its game was counted at the reservation), the debit is journaled with its
  archive entry in the player's own stream `archive` (includes/archiveEntry; docs/archive.md,
  "On a Redis Cluster"), and the request id remembers the unit (hash `requests` of the
  purchase's window). False when there is no such reservation (finished or refunded before):
  nothing changes.
]]
local function finishPending(wallet, pending, journal, requests, field, unitId, stake, soldAt, ttl, archive, playerId)
  if redis.call('HDEL', pending, field) == 0 then return false end
  local w = redis.call('HMGET', wallet, 'balance', 'held', 'staked')
  local after = tonumber(w[1] or '0') - stake
  local held = tonumber(w[2] or '0') - stake
  redis.call('HSET', wallet, 'balance', int(after), 'u:' .. unitId, soldAt, 'staked', int(tonumber(w[3] or '0') + stake))
  if held > 0 then redis.call('HSET', wallet, 'held', int(held)) else redis.call('HDEL', wallet, 'held') end
  local line = journalLine('stake', int(-stake), int(after), soldAt, unitId)
  redis.call('RPUSH', journal, line)
  archiveEntry(archive, playerId, line, string.match(field, '^([^:]*):'))
  redis.call('HSET', requests, field, unitId)
  redis.call('PEXPIRE', requests, ttl)
  return true
end
