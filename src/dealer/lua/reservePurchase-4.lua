--[[
  The player's first step of a purchase on Redis Cluster (docs/dealer.md, "Purchases on Redis
  Cluster"): checks and holds the stake in the wallet, and records the pending purchase, so
  that the sequence's step (dealUnits-5.lua, another slot) can be re-driven by request id
  until the purchase is finished (finishPurchase-5.lua) or refunded (refundPurchase-2.lua).
  "Finish your unit first" is checked here, counting pending purchases as units in play.

  Input:
    KEYS[1] the player's wallet (hash: balance; held (stakes held by pending purchases);
            u:<unitId> for each unit in play; staked (the sum of their stakes); n:<game> units
            in play or pending of that game)
    KEYS[2] the player's pending purchases (hash: <game>:<stake>|<requestId> ->
            <balance before>|<time of the purchase>|<picks>)
    KEYS[3] the player's request ids of this window (hash: <game>:<stake>|<requestId> -> unitId)
    KEYS[4] the same of the previous window

    ARGV[1] '<game>:<stake>'
    ARGV[2] requestId
    ARGV[3] stake (cents)
    ARGV[4] game
    ARGV[5] now (ms since the epoch)
    ARGV[6] picks
    ARGV[7] the request ids bought together, comma-separated, its own among them ('': no
            finish-first check)

  Output:
    {1, balanceBefore}                 held now: deal it (balance before = balance − held before)
    {2, unitId}                        this request was sold before: its sale stands
    {3, balanceBefore, time, picks}    this request is pending (a retry, or recovery): deal it
                                       with what was recorded
    {-3, available}                    the balance less what is held is below the stake
    {-9}                               the player has another unit of this game in play or pending
    {-13 … -17, …}                     refused for the player's protection (includes/protection),
                                       after finish-first, before the balance; a hold counts its
                                       stake in the player's windows (a refund takes it back)

    ARGV[8] the protection settings ('<reality check ms>|<session idle ms>', '': none)
    ARGV[9] '1': the operator's wallet holds the money (purchaseUnits.lua's ARGV[4]): no
            balance check, the hold may take the balance less what is held below zero
]]
--- @include "../../redis-scripts/lua/int"
--- @include "../../protection/lua/includes/protection"

local sequence, requestId, stake = ARGV[1], ARGV[2], tonumber(ARGV[3])
local field = sequence .. '|' .. requestId
local done = redis.call('HGET', KEYS[3], field) or redis.call('HGET', KEYS[4], field)
if done then return {2, done} end
local pending = redis.call('HGET', KEYS[2], field)
if pending then
  local before, at, picks = string.match(pending, '^([^|]*)|([^|]*)|(.*)$')
  return {3, tonumber(before), tonumber(at), picks}
end

local inPlayField = 'n:' .. ARGV[4]
local w = redis.call('HMGET', KEYS[1], 'balance', 'held', inPlayField, unpack(PURCHASE_FIELDS))
local balance, held, inPlay = tonumber(w[1] or '0'), tonumber(w[2] or '0'), tonumber(w[3] or '0')
local together = ARGV[7]
if together ~= '' and inPlay > 0 then
  -- The units of this game in play or pending that were bought with this one.
  local with = 0
  for id in string.gmatch(together, '[^,]+') do
    if id ~= requestId then
      local other = sequence .. '|' .. id
      if redis.call('HEXISTS', KEYS[2], other) == 1 then
        with = with + 1
      else
        local unit = redis.call('HGET', KEYS[3], other) or redis.call('HGET', KEYS[4], other)
        if unit and redis.call('HEXISTS', KEYS[1], 'u:' .. unit) == 1 then with = with + 1 end
      end
    end
  end
  if inPlay > with then return {-9} end
end
local now = tonumber(ARGV[5])
local refused, checked = stakeRefusal(KEYS[1], w, 3, stake, now, ARGV[5], ARGV[8])
if refused then return refused end
local available = balance - held
if available < stake and ARGV[9] ~= '1' then return {-3, available} end
local writes = {'held', int(held + stake), inPlayField, int(inPlay + 1)}
countStake(KEYS[1], checked, stake, now, writes)
redis.call('HSET', KEYS[1], unpack(writes))
redis.call('HSET', KEYS[2], field, int(available) .. '|' .. ARGV[5] .. '|' .. ARGV[6])
return {1, available}
