--[[
  A batch of purchases on one block sequence (one game at one price), each in order as its own
  atomic step and the whole batch atomic too. A purchase debits the stake, deals the next unit
  of the open block, records the sale, journals the debit, marks the unit in play in the
  player's wallet, and remembers its request id so that a retry returns this sale. When a unit is its block's last, the block closes (its seed may be
  revealed) and the next printed block opens in the same step. Batching lets many purchases in
  flight share one script call (the dealer gathers those of one event-loop turn).

  Per purchase it writes the player's wallet and journal (two commands); what it writes to the
  sequence (sales, request ids, unsettled units, counts) goes out once per batch.

  The number of keys depends on the batch, so this file has no `-<numKeys>` suffix: the caller
  passes 4 + 2 × n keys.

  Input:
    KEYS[1] the sequence's current-emission pointer (string)
    KEYS[2] the sequence's key base; emission and block keys are built from it (same slot)
    KEYS[3] the sequence's unsettled units (sorted set: unitId by sale time)
    KEYS[4] the sequence's request ids (hash: <playerId>|<requestId> -> unitId)
    for purchase i (1..n), KEYS[4 + 2(i-1) + 1..2]:
      the player's wallet (hash: balance, u:<unitId> -> sale time for each unit not settled)
      the player's journal (list; its stake lines are also the player's history)

    ARGV[1] stake (cents)
    for purchase i, ARGV[1 + 4(i-1) + 1..4]: playerId, requestId, now (ms since the epoch), picks

  Sale record, at field <position> of the block's sales hash:
    playerId|requestId|tierId|prize|soldAt|balanceBefore|balanceAfter|picks
  Journal line: stake|-<stake>|<balance after>|<now>|<unitId>

  Output: {emissionId, opened, result 1, ..., result n}: the sequence's current emission ('' if
  none), the index of the last block this batch opened (its successor is to be printed) or -1,
  and for each purchase one of:
    {1, block index, position, tierId, balanceBefore}  sold (in the batch's emission; the
                             prize is the tier's, the balance after is balanceBefore − stake)
    {2, unitId}              this request id was used: its sale stands
    {-1}                     no emission on this sequence (unknown game or price)
    {-2}                     the emission is sold out (game closed)
    {-3, balance}            balance below the stake
    {-4, emissionId, index}  the open block is sold out and block <index> is not printed yet
]]
local function int(n) return string.format('%d', n) end

local n = (#KEYS - 4) / 2
local stake = tonumber(ARGV[1])
local emissionId = redis.call('GET', KEYS[1])
local results = {emissionId or '', -1}
if not emissionId then
  for i = 1, n do results[i + 2] = {-1} end
  return results
end

local emission = KEYS[2] .. 'emission:' .. emissionId
local e = redis.call('HMGET', emission, 'state', 'index', 'cursor', 'blockSize', 'blockCount', 'tiers')
local state = e[1]
local index, cursor, size, count = tonumber(e[2]), tonumber(e[3]), tonumber(e[4]), tonumber(e[5])
local prizeFields = {}
for t = 1, tonumber(e[6]) do prizeFields[t] = 'prize:' .. t end
local prizes = redis.call('HMGET', emission, unpack(prizeFields))
local blocks = KEYS[2] .. 'block:' .. emissionId .. '.'

-- What the batch writes to the open block, flushed when the block changes and at the end.
local block = blocks .. index
local units, unitsFrom = '', cursor
local sales, soldPerTier, unsettled = {}, {}, {}
-- Request ids: those served before, read once for the batch; those served by this batch
-- (<playerId>|<requestId> -> unitId), written once at the end.
local requestOf, served, requests = {}, {}, {}
for i = 1, n do requestOf[i] = ARGV[4 * i - 2] .. '|' .. ARGV[4 * i - 1] end
local servedBefore = redis.call('HMGET', KEYS[4], unpack(requestOf))
local function flushBlock()
  if #sales == 0 then return end
  redis.call('HSET', block .. ':sales', unpack(sales))
  for tier, sold in pairs(soldPerTier) do redis.call('HINCRBY', block .. ':info', 't' .. tier, sold) end
  sales, soldPerTier = {}, {}
end
local function openNext(now)
  local nextInfo = blocks .. (index + 1) .. ':info'
  if redis.call('EXISTS', nextInfo) == 0 then return false end
  flushBlock()
  redis.call('HSET', nextInfo, 'state', 'open', 'openedAt', now)
  index, cursor = index + 1, 0
  block, units, unitsFrom = blocks .. index, '', 0
  results[2] = index
  return true
end

-- Text the purchases share: a journal line's head, each tier's prize as stored.
local stakeLine = 'stake|' .. int(-stake) .. '|'
prizes[0] = '0'

local function purchase(i)
  local k, a = 4 + 2 * (i - 1), 1 + 4 * (i - 1)
  local wallet = KEYS[k + 1]
  local requestId, now = ARGV[a + 2], ARGV[a + 3]
  local request = requestOf[i]
  local previous = servedBefore[i] or served[request]
  if previous then return {2, previous} end
  if state == 'closed' then return {-2} end
  local balanceText = redis.call('HGET', wallet, 'balance') or '0'
  local balance = tonumber(balanceText)
  if balance < stake then return {-3, balance} end
  -- The open block sold out before its successor was printed: open the successor now.
  if cursor == size and not openNext(now) then return {-4, emissionId, index + 1} end

  if cursor - unitsFrom >= #units then
    -- One read of the printed bytes for the rest of the batch in this block.
    units, unitsFrom = redis.call('GETRANGE', block .. ':units', cursor, math.min(cursor + n - i, size - 1)), cursor
  end
  local position = cursor
  local tier = string.byte(units, position - unitsFrom + 1)
  local after = int(balance - stake)
  local unitId = emissionId .. '.' .. index .. ':' .. position

  redis.call('HSET', wallet, 'balance', after, 'u:' .. unitId, now)
  redis.call('RPUSH', KEYS[k + 2], stakeLine .. after .. '|' .. now .. '|' .. unitId)
  served[request] = unitId
  requests[#requests + 1] = request
  requests[#requests + 1] = unitId
  unsettled[#unsettled + 1] = now
  unsettled[#unsettled + 1] = unitId
  sales[#sales + 1] = position
  sales[#sales + 1] = ARGV[a + 1] .. '|' .. requestId .. '|' .. tier .. '|' .. prizes[tier] .. '|' .. now .. '|' ..
    balanceText .. '|' .. after .. '|' .. ARGV[a + 4]
  soldPerTier[tier] = (soldPerTier[tier] or 0) + 1
  local sold = {1, index, position, tier, balance}

  cursor = cursor + 1
  if cursor == size then
    redis.call('HSET', block .. ':info', 'state', 'closed', 'closedAt', now)
    if index + 1 == count then
      state = 'closed'
    else
      -- Open the successor in this step when it is printed; otherwise a later purchase does.
      openNext(now)
    end
  end
  return sold
end

for i = 1, n do results[i + 2] = purchase(i) end
flushBlock()
if #unsettled > 0 then
  redis.call('ZADD', KEYS[3], unpack(unsettled))
  redis.call('HSET', KEYS[4], unpack(requests))
end
redis.call('HSET', emission, 'state', state, 'index', index, 'cursor', cursor)
return results
