--[[
  The buyer's step of settling a unit on Redis Cluster, before settleSale-3.lua: takes the unit
  out of play and credits its prize, once (the unit's u:<unitId> field in the wallet is the
  token: whoever removes it credits). A purchase whose own last step was lost (a crash between
  the sequence's step and the player's) is finished first (includes/finishPending), so the
  stake is debited before the prize is credited, each once.

  A credit that takes the balance above the automatic withdrawal threshold records its event
  in the wallet (e:<unitId>) in this same step: the operator's events are in another slot, so
  the store relays it there (relayEvent-2.lua) and drops it from the wallet before the
  sequence's step marks the unit settled. Until then the unit stays unsettled, and settling it
  again (the sweeper does) answers the event again for the relay.

  Input:
    KEYS[1] the buyer's wallet (hash, as in reservePurchase-4.lua)
    KEYS[2] the buyer's pending purchases (hash)
    KEYS[3] the buyer's journal (list)
    KEYS[4] the buyer's request ids of the purchase's window (hash)
    KEYS[5] the buyer's archive stream (includes/archiveEntry): the prize's entry, and the
            stake's when this step finishes the purchase

    ARGV[1] '<game>:<stake>|<requestId>' of the purchase
    ARGV[2] unitId
    ARGV[3] stake (cents)
    ARGV[4] time of the purchase (ms since the epoch)
    ARGV[5] time to live of KEYS[4] in ms
    ARGV[6] prize (cents)
    ARGV[7] now (ms since the epoch)
    ARGV[8] the unit's game
    ARGV[9] the buyer's playerId
    ARGV[10] the withdrawal threshold (cents; '' when off)

  Journal line (includes/journalLine): prize|<prize>|<balance after>|<now>|<unitId>

  Output:
    {1, balance, event}  taken out of play now (credited when prize > 0)
    {0, balance, event}  done before: nothing changed
    event: the threshold event (includes/thresholdEvent) of this unit's credit not relayed yet,
    or ''
]]
--- @include "../../redis-scripts/lua/int"
--- @include "includes/journalLine"
--- @include "includes/archiveEntry"
--- @include "includes/finishPending"
--- @include "includes/takeOutOfPlay"
--- @include "includes/creditPrize"

local eventField = 'e:' .. ARGV[2]
finishPending(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], KEYS[5], ARGV[9])
local balance = tonumber(redis.call('HGET', KEYS[1], 'balance') or '0')
if not takeOutOfPlay(KEYS[1], ARGV[2], ARGV[8], tonumber(ARGV[3])) then
  return {0, balance, redis.call('HGET', KEYS[1], eventField) or ''}
end
local prize = tonumber(ARGV[6])
local event = nil
if prize > 0 then
  balance, event = creditPrize(KEYS[1], KEYS[3], KEYS[5], ARGV[9], balance, prize, ARGV[7], ARGV[2], ARGV[8], ARGV[10])
  if event then redis.call('HSET', KEYS[1], eventField, event) end
end
return {1, balance, event or ''}
