--[[
  Credits a deposit once per reference and journals it.

  Input:
    KEYS[1] the player's wallet (hash: balance, ...)
    KEYS[2] the player's deposits (hash: ref -> journal seq)
    KEYS[3] the player's journal (list)

    ARGV[1] amount (cents, > 0)
    ARGV[2] reference
    ARGV[3] now (ms since the epoch)

  Journal line (includes/journalLine): deposit|<amount>|<balance after>|<now>|<ref>

  Output:
    {1, balance}  credited
    {0, balance}  this reference was credited before: nothing changed
    {-18, left, next free at or -1}  over the weekly deposit limit (includes/protection)
]]
--- @include "includes/int"
--- @include "includes/protection"
--- @include "includes/journalLine"

local balance = tonumber(redis.call('HGET', KEYS[1], 'balance') or '0')
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return {0, balance} end
local refused = depositRefusal(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[3]))
if refused then return refused end
balance = balance + tonumber(ARGV[1])
local seq = redis.call('RPUSH', KEYS[3], journalLine('deposit', ARGV[1], int(balance), ARGV[3], ARGV[2]))
redis.call('HSET', KEYS[1], 'balance', int(balance))
redis.call('HSET', KEYS[2], ARGV[2], seq)
return {1, balance}
