--[[
  The sequence's step of a purchase on Redis Cluster (docs/dealer.md, "Purchases on Redis
  Cluster"): deals a batch of units whose stakes are already reserved in their players'
  wallets (reservePurchase-4.lua, another slot), each in order as its own step, the batch
  atomic. Idempotent by request id: a request dealt before gets its unit again, so the
  step can be re-driven after a crash or a lost answer. No wallet is touched here.

  Input: KEYS[1..5] as in includes/sequenceDealing (current emission, key base, unsettled
  units, request ids of this window and of the previous one).

    ARGV[1] stake (cents)
    ARGV[2] time to live of KEYS[4] in ms (to the end of the next window)
    for purchase i (1..n), ARGV[2 + 6(i-1) + 1..6]: playerId, requestId, time of the purchase
      (ms since the epoch), picks, the balance before (the reservation's available balance),
      '1' if a PASSED record of the request answers -12 (the first walk over the lanes), '0' if
      it is ignored (the walk again, when every lane passed the request: it was never dealt)

  Sale record: includes/saleRecord (balance after = balance before − stake).

  Output: {emissionId, opened, result 1, ..., result n}: the sequence's current emission ('' if
  none), the index of the last block this batch opened (its successor is to be printed) or -1,
  and for each purchase one of:
    {1, block index, position, tierId}  dealt now (in the batch's emission)
    {2, unitId}              this request was dealt before: that unit
    {-1}                     no emission on this sequence (unknown game or price)
    {-2}                     the lane's emission is sold out (the caller tries its other lanes);
                             with several lanes, the request is recorded PASSED
    {-12}                    this lane passed the request on before (the caller goes on)
    {-4, emissionId, index}  the open block is sold out and block <index> (the lane's next)
                             is not printed yet
]]
--- @include "../../redis-scripts/lua/int"
--- @include "includes/saleRecord"

local n = (#ARGV - 2) / 6
local argsAt = 2
--- @include "includes/sequenceDealing"
local stake = tonumber(ARGV[1])

local function deal(i)
  local a = 2 + 6 * (i - 1)
  local playerId, requestId, now, picks, before = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 4], ARGV[a + 5]
  local previous = servedAlready(i)
  if previous == PASSED then
    if ARGV[a + 6] == '1' then return {-12} end
  elseif previous then
    return {2, previous}
  end
  if state == 'closed' then
    recordPassed(i)
    return {-2}
  end
  local position, tier, unitId = dealNext(now, n - i)
  if not position then return {-4, emissionId, index + lanes} end
  local soldIndex = index
  recordSale(i, position, tier, unitId, now, saleRecord(playerId, requestId, tier, prizes[tier], now, before, int(tonumber(before) - stake), picks))
  return {1, soldIndex, position, tier}
end

for i = 1, n do results[i + 2] = deal(i) end
finishDealing(ARGV[2])
return results
