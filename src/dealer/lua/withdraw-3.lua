--[[
  Debits a withdrawal once per reference, never below zero nor into the stakes held by pending
  purchases (`held`, on Redis Cluster: reservePurchase-4.lua), and journals it.

  Input:
    KEYS[1] the player's wallet (hash: balance, held, ...)
    KEYS[2] the player's deposits (hash: ref -> journal seq; withdrawals share it, refs differ)
    KEYS[3] the player's journal (list)

    ARGV[1] amount (cents, > 0)
    ARGV[2] reference
    ARGV[3] now (ms since the epoch)

  Journal line (includes/journalLine): withdrawal|-<amount>|<balance after>|<now>|<ref>

  Output:
    {1, balance}    debited
    {0, balance}    this reference was debited before: nothing changed
    {-11, balance}  the balance less what is held is below the amount: nothing changed
]]
--- @include "includes/int"
--- @include "includes/journalLine"

local w = redis.call('HMGET', KEYS[1], 'balance', 'held')
local balance = tonumber(w[1] or '0')
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return {0, balance} end
local amount = tonumber(ARGV[1])
if balance - tonumber(w[2] or '0') < amount then return {-11, balance} end
balance = balance - amount
local seq = redis.call('RPUSH', KEYS[3], journalLine('withdrawal', '-' .. ARGV[1], int(balance), ARGV[3], ARGV[2]))
redis.call('HSET', KEYS[1], 'balance', int(balance))
redis.call('HSET', KEYS[2], ARGV[2], seq)
return {1, balance}
