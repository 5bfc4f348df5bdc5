--[[
  Takes a player's debit slot for a debit (src/wallet/seamless/wallet-transactions.ts,
  claimDebitSlot): one debit of a player at a time is asked of the operator. The slot lives
  ARGV[2] ms on the store's clock, so that a process that died holding it frees it.

  Input:
    KEYS[1] the player's debit slot (string: the id of the debit holding it)

    ARGV[1] the debit's id
    ARGV[2] the slot's life (ms)

  Output:
    1  taken (or taken again by the debit holding it, its life renewed)
    0  another debit holds it
]]
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
