--[[
  Dealing a batch of n units on one block sequence (one lane of an emission): shared by
  purchaseUnits.lua (one script per purchase, single Redis) and dealUnits-5.lua (the sequence's
  step of the cluster's purchase). Lane l of an emission of L lanes deals its blocks l, l + L,
  l + 2L, … (< blockCount) in that order, so each block sells exactly as on one lane.
  Both take the same first five keys:
    KEYS[1] the sequence's current-emission pointer (string)
    KEYS[2] the sequence's key base; emission and block keys are built from it (same slot)
    KEYS[3] the sequence's unsettled units (sorted set: unitId by sale time)
    KEYS[4] the sequence's request ids of this window (hash: <playerId>|<requestId> -> unitId)
    KEYS[5] the same of the previous window
  The including script sets `n` (purchases in the batch) and `argsAt` (purchase i's arguments
  start at ARGV[argsAt + 6(i-1) + 1], its player id and request id first) before; the include
  then ends the script with -1 for every purchase when the sequence sells no emission, and
  reads the request ids served before. Then, per purchase: `servedAlready(i)`, the
  checks of its own, `dealNext(now)` (the position, its tier and the unit's id),
  `recordSale(...)` (or `recordPassed(i)` when the lane is sold out); and `finishDealing(ttl)`
  at the end. A request id record is the unit it was served, or PASSED: a lane of several
  turned it away, sold out (docs/dealer.md, "Lanes").
  `results[1..2]` are the batch's emission id and the last block it opened; `lanes` is the
  step from one block of the lane to its next (the next block to print after `index`).
]]
-- <playerId>|<requestId> of purchase i.
local requestOf = {}
for i = 1, n do requestOf[i] = ARGV[argsAt + 6 * i - 5] .. '|' .. ARGV[argsAt + 6 * i - 4] end
local emissionId = redis.call('GET', KEYS[1])
local results = {emissionId or '', -1}
local state, index, cursor, size, count, prizes, emission, blocks
local lanes = 1

if emissionId then
  emission = KEYS[2] .. 'emission:' .. emissionId
  local e = redis.call('HMGET', emission, 'state', 'index', 'cursor', 'blockSize', 'blockCount', 'tiers', 'lanes')
  state = e[1]
  index, cursor, size, count = tonumber(e[2]), tonumber(e[3]), tonumber(e[4]), tonumber(e[5])
  -- Emissions opened before lanes have no field: one lane.
  lanes = tonumber(e[7]) or 1
  local prizeFields = {}
  for t = 1, tonumber(e[6]) do prizeFields[t] = 'prize:' .. t end
  prizes = redis.call('HMGET', emission, unpack(prizeFields))
  prizes[0] = '0'
  blocks = KEYS[2] .. 'block:' .. emissionId .. '.'
end

-- What the batch writes to the open block, flushed when the block changes and at the end.
local block = blocks and (blocks .. index)
-- The open block's unit ids up to the position (<emissionId>.<index>:), made once a block:
-- each number turned into text costs Redis's Lua a printf.
local unitPrefix = block and (emissionId .. '.' .. index .. ':')
local units, unitsFrom = '', cursor
local sales, soldPerTier, unsettled = {}, {}, {}
-- Request ids served before (read once for the batch) and by this batch (written once at the end).
local served, requests = {}, {}
local PASSED = '>'
local servedBefore = {}

local function readServedBefore()
  servedBefore = redis.call('HMGET', KEYS[4], unpack(requestOf))
  local servedInPrevious = redis.call('HMGET', KEYS[5], unpack(requestOf))
  for i = 1, n do servedBefore[i] = servedBefore[i] or servedInPrevious[i] end
end

-- The unit this purchase's request id was served before (this batch or the windows), if any.
local function servedAlready(i)
  return servedBefore[i] or served[requestOf[i]]
end

local function flushBlock()
  if #sales == 0 then return end
  redis.call('HSET', block .. ':sales', unpack(sales))
  for tier, sold in pairs(soldPerTier) do redis.call('HINCRBY', block .. ':info', 't' .. tier, sold) end
  sales, soldPerTier = {}, {}
end

local function openNext(now)
  local nextInfo = blocks .. (index + lanes) .. ':info'
  if redis.call('EXISTS', nextInfo) == 0 then return false end
  flushBlock()
  redis.call('HSET', nextInfo, 'state', 'open', 'openedAt', now)
  index, cursor = index + lanes, 0
  block, units, unitsFrom = blocks .. index, '', 0
  unitPrefix = emissionId .. '.' .. index .. ':'
  results[2] = index
  return true
end

-- The next position of the open block, its tier and the unit's id, or nil when the open block
-- is sold out and its successor is not printed yet. `left` is how many purchases of the batch
-- may follow.
local function dealNext(now, left)
  if cursor == size and not openNext(now) then return nil end
  if cursor - unitsFrom >= #units then
    -- One read of the printed bytes for the rest of the batch in this block.
    units, unitsFrom = redis.call('GETRANGE', block .. ':units', cursor, math.min(cursor + left, size - 1)), cursor
  end
  return cursor, string.byte(units, cursor - unitsFrom + 1), unitPrefix .. cursor
end

-- Records the sale dealt by dealNext and moves on; a block's last unit closes it and opens the
-- next one when printed (otherwise a later purchase does).
local function recordSale(i, position, tier, unitId, now, record)
  local request = requestOf[i]
  served[request] = unitId
  requests[#requests + 1] = request
  requests[#requests + 1] = unitId
  unsettled[#unsettled + 1] = now
  unsettled[#unsettled + 1] = unitId
  -- The position as text, from the id: a number given to redis.call is formatted again.
  sales[#sales + 1] = string.sub(unitId, #unitPrefix + 1)
  sales[#sales + 1] = record
  soldPerTier[tier] = (soldPerTier[tier] or 0) + 1
  cursor = cursor + 1
  if cursor == size then
    redis.call('HSET', block .. ':info', 'state', 'closed', 'closedAt', now)
    if index + lanes >= count then state = 'closed' else openNext(now) end
  end
end

-- A lane of several, sold out, turning purchase i away: remembered so that the request's walk
-- over the lanes passes this lane again, even once another emission sells here (where the
-- walk may have gone on to be dealt).
local function recordPassed(i)
  if lanes == 1 then return end
  local request = requestOf[i]
  served[request] = PASSED
  requests[#requests + 1] = request
  requests[#requests + 1] = PASSED
end

local function finishDealing(ttl)
  flushBlock()
  if #unsettled > 0 then redis.call('ZADD', KEYS[3], unpack(unsettled)) end
  if #requests > 0 then
    redis.call('HSET', KEYS[4], unpack(requests))
    redis.call('PEXPIRE', KEYS[4], ttl)
  end
  redis.call('HSET', emission, 'state', state, 'index', index, 'cursor', cursor)
end

-- No emission on this sequence (unknown game or price): every purchase answers -1.
if not emissionId then
  for i = 1, n do results[i + 2] = {-1} end
  return results
end
readServedBefore()
