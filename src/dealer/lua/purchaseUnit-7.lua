--[[
  A purchase in one atomic step: debit the stake, deal the next unit of the open block, record
  the sale, journal the debit, and remember the request id so that a retry returns this sale.
  When the unit is the block's last, the block closes (its seed may be revealed) and the next
  printed block opens in this same step.

  Input:
    KEYS[1] the sequence's current-emission pointer (string)
    KEYS[2] the sequence's key base; emission and block keys are built from it (same slot)
    KEYS[3] the sequence's unsettled units (sorted set, by sale time)
    KEYS[4] the player's wallet (hash: balance, r:<requestId> -> unitId, d:<ref> -> seq)
    KEYS[5] the player's journal (list)
    KEYS[6] the player's unit ids, newest first (list)
    KEYS[7] the player's unsettled units (sorted set, by sale time)

    ARGV[1] playerId
    ARGV[2] requestId
    ARGV[3] stake (cents)
    ARGV[4] now (ms since the epoch)
    ARGV[5] picks (opaque text, may be empty)

  Sale record, at field <position> of the block's sales hash:
    playerId|requestId|tierId|prize|soldAt|balanceBefore|balanceAfter|picks
  Journal line: stake|-<stake>|<balance after>|<now>|<unitId>

  Output:
    {1, emissionId, block index, position, tierId, prize, balanceBefore, balanceAfter,
       index of the block this step opened or -1}   sold
    {2, unitId}                                      this request id was used: its sale stands
    {-1}                   no emission on this sequence (unknown game or price)
    {-2}                   the emission is sold out (game closed)
    {-3, balance}          balance below the stake
    {-4, emissionId, index}  the open block is sold out and block <index> is not printed yet
]]
local function int(n) return string.format('%d', n) end

local unitId = redis.call('HGET', KEYS[4], 'r:' .. ARGV[2])
if unitId then return {2, unitId} end
local emissionId = redis.call('GET', KEYS[1])
if not emissionId then return {-1} end
local emission = KEYS[2] .. 'emission:' .. emissionId
local e = redis.call('HMGET', emission, 'state', 'index', 'cursor', 'blockSize', 'blockCount')
if e[1] == 'closed' then return {-2} end
local stake = tonumber(ARGV[3])
local balance = tonumber(redis.call('HGET', KEYS[4], 'balance') or '0')
if balance < stake then return {-3, balance} end

local index, cursor, size, count = tonumber(e[2]), tonumber(e[3]), tonumber(e[4]), tonumber(e[5])
local blocks = KEYS[2] .. 'block:' .. emissionId .. '.'
local now = ARGV[4]
local opened = -1
if cursor == size then
  -- The open block sold out before its successor was printed: open the successor now.
  local nextInfo = blocks .. (index + 1) .. ':info'
  if redis.call('EXISTS', nextInfo) == 0 then return {-4, emissionId, index + 1} end
  redis.call('HSET', nextInfo, 'state', 'open', 'openedAt', now)
  index, cursor, opened = index + 1, 0, index + 1
end

local block = blocks .. index
local position = cursor
local tier = string.byte(redis.call('GETRANGE', block .. ':units', position, position))
local prize = 0
if tier > 0 then prize = tonumber(redis.call('HGET', emission, 'prize:' .. tier)) end
local after = balance - stake
unitId = emissionId .. '.' .. index .. ':' .. position

redis.call('HSET', KEYS[4], 'balance', int(after), 'r:' .. ARGV[2], unitId)
redis.call('RPUSH', KEYS[5], 'stake|' .. int(-stake) .. '|' .. int(after) .. '|' .. now .. '|' .. unitId)
redis.call('LPUSH', KEYS[6], unitId)
redis.call('ZADD', KEYS[7], now, unitId)
redis.call('ZADD', KEYS[3], now, unitId)
redis.call('HSET', block .. ':sales', position, ARGV[1] .. '|' .. ARGV[2] .. '|' .. tier .. '|' .. int(prize) .. '|' ..
  now .. '|' .. int(balance) .. '|' .. int(after) .. '|' .. ARGV[5])
redis.call('HINCRBY', block .. ':info', 'sold', 1)
redis.call('HINCRBY', block .. ':info', 't' .. tier, 1)

cursor = cursor + 1
local saleIndex = index
if cursor == size then
  redis.call('HSET', block .. ':info', 'state', 'closed', 'closedAt', now)
  if index + 1 == count then
    redis.call('HSET', emission, 'state', 'closed')
  else
    -- Open the successor in this step when it is printed; otherwise the next purchase does.
    local nextInfo = blocks .. (index + 1) .. ':info'
    if redis.call('EXISTS', nextInfo) == 1 then
      redis.call('HSET', nextInfo, 'state', 'open', 'openedAt', now)
      index, cursor, opened = index + 1, 0, index + 1
    end
  end
end
redis.call('HSET', emission, 'index', index, 'cursor', cursor)
return {1, emissionId, saleIndex, position, tier, prize, balance, after, opened}
