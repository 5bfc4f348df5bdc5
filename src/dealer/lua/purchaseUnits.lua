--[[
  A batch of purchases on one block sequence (one game at one price), each in order as its own
  atomic step and the whole batch atomic too. A purchase debits the stake, deals the next unit
  of the open block, records the sale, journals the debit, marks the unit in play in the
  player's wallet, and remembers its request id so that a retry returns this sale. When a
  unit is its block's last, the block closes (its seed may be revealed) and the next printed
  block opens in the same step. Batching lets many purchases in
  flight share one script call (the dealer gathers those of one event-loop turn).

  Per purchase it writes the player's wallet and journal (two commands); what it writes to the
  sequence (sales, request ids, unsettled units, counts) goes out once per batch.

  "Finish your unit first" (GLI-19 4.16) is checked here, in the same step as the sale, so no
  interleaving of dealers can sell a player a second unfinished unit of a game: a purchase that
  asks for it (its list of request ids bought together is not empty) is refused while the
  player has more units of this game in play than those bought under the other ids of its list
  (the lamp's pair is bought as <id>-0 then <id>-1, each listing both).

  Request ids are kept for a window (the idempotency window W, set by the store): the records
  of the batch go to the hash of the window of its time (KEYS[4]), which expires 2 W after
  that window began; a request is looked up in it and in the previous window's (KEYS[5]). So a
  retry within W always finds its sale, and no record outlives 2 W.

  The number of keys depends on the batch, so this file has no `-<numKeys>` suffix: the caller
  passes 5 + 2 × n keys.

  Input:
    KEYS[1] the sequence's current-emission pointer (string)
    KEYS[2] the sequence's key base; emission and block keys are built from it (same slot)
    KEYS[3] the sequence's unsettled units (sorted set: unitId by sale time)
    KEYS[4] the sequence's request ids of this window (hash: <playerId>|<requestId> -> unitId)
    KEYS[5] the same of the previous window
    for purchase i (1..n), KEYS[5 + 2(i-1) + 1..2]:
      the player's wallet (hash: balance; u:<unitId> -> sale time for each unit not settled;
        n:<game> how many of them are of that game)
      the player's journal (list; its stake lines are also the player's history)

    ARGV[1] stake (cents)
    ARGV[2] game
    ARGV[3] time to live of KEYS[4] in ms (to the end of the next window)
    for purchase i, ARGV[3 + 5(i-1) + 1..5]: playerId, requestId, now (ms since the epoch),
      picks, the request ids bought together, comma-separated, its own among them ('': no
      finish-first check)

  Sale record: includes/saleRecord. Journal line (includes/journalLine):
    stake|-<stake>|<balance after>|<now>|<unitId>

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
    {-9}                     the player has an unfinished unit of this game (finish it first)
]]
--- @include "includes/int"
--- @include "includes/journalLine"
--- @include "includes/saleRecord"

local n = (#KEYS - 5) / 2
local stake = tonumber(ARGV[1])
local inPlayField = 'n:' .. ARGV[2]
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
for i = 1, n do requestOf[i] = ARGV[5 * i - 1] .. '|' .. ARGV[5 * i] end
local servedBefore = redis.call('HMGET', KEYS[4], unpack(requestOf))
local servedInPrevious = redis.call('HMGET', KEYS[5], unpack(requestOf))
for i = 1, n do servedBefore[i] = servedBefore[i] or servedInPrevious[i] end
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

-- Text the purchases share: the stake as a journal amount, each tier's prize as stored.
local debit = int(-stake)
prizes[0] = '0'

-- How many of the units in play in `wallet` were bought under the ids of `together` other
-- than `requestId` (the units bought with this one).
local function boughtWith(wallet, playerId, requestId, together)
  local count = 0
  for id in string.gmatch(together, '[^,]+') do
    if id ~= requestId then
      local request = playerId .. '|' .. id
      local unit = served[request] or redis.call('HGET', KEYS[4], request) or redis.call('HGET', KEYS[5], request)
      if unit and redis.call('HEXISTS', wallet, 'u:' .. unit) == 1 then count = count + 1 end
    end
  end
  return count
end

local function purchase(i)
  local k, a = 5 + 2 * (i - 1), 3 + 5 * (i - 1)
  local wallet = KEYS[k + 1]
  local playerId, requestId, now, together = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 5]
  local request = requestOf[i]
  local previous = servedBefore[i] or served[request]
  if previous then return {2, previous} end
  if state == 'closed' then return {-2} end
  local held = redis.call('HMGET', wallet, 'balance', inPlayField)
  local balanceText = held[1] or '0'
  local balance = tonumber(balanceText)
  local inPlay = tonumber(held[2] or '0')
  if together ~= '' and inPlay > 0 and inPlay > boughtWith(wallet, playerId, requestId, together) then return {-9} end
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

  redis.call('HSET', wallet, 'balance', after, 'u:' .. unitId, now, inPlayField, int(inPlay + 1))
  redis.call('RPUSH', KEYS[k + 2], journalLine('stake', debit, after, now, unitId))
  served[request] = unitId
  requests[#requests + 1] = request
  requests[#requests + 1] = unitId
  unsettled[#unsettled + 1] = now
  unsettled[#unsettled + 1] = unitId
  sales[#sales + 1] = position
  sales[#sales + 1] = saleRecord(playerId, requestId, tier, prizes[tier], now, balanceText, after, ARGV[a + 4])
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
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
end
redis.call('HSET', emission, 'state', state, 'index', index, 'cursor', cursor)
return results
