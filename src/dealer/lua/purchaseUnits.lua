--[[
  A batch of purchases on one block sequence (one game at one price), each in order as its own
  atomic step and the whole batch atomic too. A purchase debits the stake, deals the next unit
  of the open block, records the sale, journals the debit, marks the unit in play in the
  player's wallet, and remembers its request id so that a retry returns this sale. When a
  unit is its block's last, the block closes (its seed may be revealed) and the next printed
  block opens in the same step. Batching lets many purchases in
  flight share one script call (the dealer gathers those of one event-loop turn).

  Per purchase it reads the player's wallet and writes it and the journal (three commands, the
  player's protection read and written with the wallet's fields: includes/protection); what it
  writes to the sequence (sales, request ids, unsettled units, counts) and the archive's entry
  of its stakes go out once per batch.

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
  passes 6 + 2 × n keys.

  Input:
    KEYS[1] the sequence's current-emission pointer (string)
    KEYS[2] the sequence's key base; emission and block keys are built from it (same slot)
    KEYS[3] the sequence's unsettled units (sorted set: unitId by sale time)
    KEYS[4] the sequence's request ids of this window (hash: <playerId>|<requestId> -> unitId)
    KEYS[5] the same of the previous window
    KEYS[6] the regulator's archive's money stream (includes/archiveEntry: one entry a batch,
      holding its stakes' lines in order)
    for purchase i (1..n), KEYS[6 + 2(i-1) + 1..2]:
      the player's wallet (hash: balance; u:<unitId> -> sale time for each unit not settled;
        n:<game> how many of them are of that game; staked: the sum of their stakes)
      the player's journal (list; its stake lines are also the player's history)

    ARGV[1] stake (cents)
    ARGV[2] game
    ARGV[3] time to live of KEYS[4] in ms (to the end of the next window)
    ARGV[4] '1': the operator's wallet holds the money (seamless: the stake was debited there
            before this purchase), so no balance check here and the balance may go below zero;
            '': this wallet's balance must cover the stake
    for purchase i, ARGV[4 + 6(i-1) + 1..6]: playerId, requestId, now (ms since the epoch),
      picks, the request ids bought together, comma-separated, its own among them ('': no
      finish-first check), the protection settings ('<reality check ms>|<session idle ms>',
      '': no limit-set or reality check; includes/protection)

  Dealing (the block, the sequence's records): includes/sequenceDealing, shared with
  dealUnits-5.lua. Sale record: includes/saleRecord. Journal line (includes/journalLine):
    stake|-<stake>|<balance after>|<now>|<unitId>

  Output: {emissionId, opened, result 1, ..., result n}: the sequence's current emission ('' if
  none), the index of the last block this batch opened (its successor is to be printed) or -1,
  and for each purchase one of:
    {1, block index, position, tierId, balanceBefore}  sold (in the batch's emission; the
                             prize is the tier's, the balance after is balanceBefore − stake)
    {2, unitId}              this request id was used: its sale stands
    {-1}                     no emission on this sequence (unknown game or price)
    {-2}                     the lane's emission is sold out (the caller tries its other lanes)
    {-3, balance}            balance below the stake
    {-4, emissionId, index}  the open block is sold out and block <index> (the lane's next)
                             is not printed yet
    {-9}                     the player has an unfinished unit of this game (finish it first)
    {-13 … -17, …}           refused for the player's protection (includes/protection: block,
                             self-exclusion, no weekly limit, reality check, a stake limit),
                             checked after finish-first and before the balance; a sale counts
                             its stake in the player's windows
]]
--- @include "../../redis-scripts/lua/int"
--- @include "includes/journalLine"
--- @include "includes/saleRecord"
--- @include "../../protection/lua/includes/protection"
--- @include "includes/archiveEntry"

local n = (#KEYS - 6) / 2
local argsAt = 4
local operatorFunded = ARGV[4] == '1'
--- @include "includes/sequenceDealing"

local stake = tonumber(ARGV[1])
local inPlayField = 'n:' .. ARGV[2]
-- The stake as a journal amount, shared by the purchases.
local debit = int(-stake)
-- The archive's entry of the batch's stakes (includes/archiveEntry), added once at the end.
local archived = {}

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
  local k, a = 6 + 2 * (i - 1), argsAt + 6 * (i - 1)
  local wallet = KEYS[k + 1]
  local playerId, requestId, now, together = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3], ARGV[a + 5]
  local previous = servedAlready(i)
  if previous then return {2, previous} end
  if state == 'closed' then return {-2} end
  local w = redis.call('HMGET', wallet, 'balance', inPlayField, 'staked', unpack(PURCHASE_FIELDS))
  local balanceText = w[1] or '0'
  local balance = tonumber(balanceText)
  local inPlay = tonumber(w[2] or '0')
  if together ~= '' and inPlay > 0 and inPlay > boughtWith(wallet, playerId, requestId, together) then return {-9} end
  local nowMs = tonumber(now)
  local refused, checked = stakeRefusal(wallet, w, 3, stake, nowMs, now, ARGV[a + 6])
  if refused then return refused end
  if balance < stake and not operatorFunded then return {-3, balance} end
  local position, tier, unitId = dealNext(now, n - i)
  if not position then return {-4, emissionId, index + lanes} end
  local soldIndex = index
  local after = int(balance - stake)

  local writes = {'balance', after, 'u:' .. unitId, now, inPlayField, int(inPlay + 1), 'staked', int(tonumber(w[3] or '0') + stake)}
  countStake(wallet, checked, stake, nowMs, writes)
  redis.call('HSET', wallet, unpack(writes))
  local line = journalLine('stake', debit, after, now, unitId)
  redis.call('RPUSH', KEYS[k + 2], line)
  archiveLine(archived, playerId, line, ARGV[2])
  recordSale(i, position, tier, unitId, now, saleRecord(playerId, requestId, tier, prizes[tier], now, balanceText, after, ARGV[a + 4]))
  return {1, soldIndex, position, tier, balance}
end

for i = 1, n do results[i + 2] = purchase(i) end
finishDealing(ARGV[3])
archiveEntries(KEYS[6], archived)
return results
