--[[
  Settles a sold unit once: marks it settled, takes it out of the units in play and credits its
  prize (journal line only when the prize is above 0); a credit that takes the balance above
  the automatic withdrawal threshold adds its event to the operator's events, in this same
  step (includes/thresholdEvent). A repeat changes nothing.

  Input:
    KEYS[1] the block's sales (hash: position -> sale record, includes/saleRecord)
    KEYS[2] the block's settlements (hash: position -> settlement time)
    KEYS[3] the sequence's unsettled units (sorted set)
    KEYS[4] the buyer's wallet (hash: balance; staked (the stakes of the units in play);
            u:<unitId> for each unit not settled; n:<game> how many of them are of that game)
    KEYS[5] the buyer's journal (list)
    KEYS[6] the operator's events (stream: field e -> includes/thresholdEvent)
    KEYS[7] the regulator's archive's money stream (includes/archiveEntry: one entry a prize)

    ARGV[1] position
    ARGV[2] unitId
    ARGV[3] playerId the caller read from the sale (the wallet keys are that player's)
    ARGV[4] now (ms since the epoch)
    ARGV[5] the unit's game
    ARGV[6] the unit's stake (cents)
    ARGV[7] the withdrawal threshold (cents; '' when off)

  Journal line (includes/journalLine): prize|<prize>|<balance after>|<now>|<unitId>

  Output:
    {1, prize, balance}  settled now (credited when prize > 0)
    {0, prize, balance}  settled before: nothing changed
    {-5}                 no such sale, or it is not that player's
]]
--- @include "includes/saleRecord"
--- @include "includes/markSettled"
--- @include "includes/takeOutOfPlay"
--- @include "includes/creditPrize"

local settledNow, prize = markSettled(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
if settledNow == nil then return {-5} end
if not settledNow then return {0, prize, tonumber(redis.call('HGET', KEYS[4], 'balance') or '0')} end
takeOutOfPlay(KEYS[4], ARGV[2], ARGV[5], tonumber(ARGV[6]))
local balance = tonumber(redis.call('HGET', KEYS[4], 'balance') or '0')
if prize > 0 then
  local event
  balance, event = creditPrize(KEYS[4], KEYS[5], KEYS[7], ARGV[3], balance, prize, ARGV[4], ARGV[2], ARGV[5], ARGV[7])
  if event then redis.call('XADD', KEYS[6], '*', 'e', event) end
end
return {1, prize, balance}
