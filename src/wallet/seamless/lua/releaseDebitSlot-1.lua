--[[
  Frees a player's debit slot (src/wallet/seamless/wallet-transactions.ts, releaseDebitSlot),
  only if the debit named holds it: a slot that expired and was taken by another debit stays.

  Input:
    KEYS[1] the player's debit slot (string: the id of the debit holding it)

    ARGV[1] the debit's id

  Output:
    1  freed
    0  held by another debit, or free
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
