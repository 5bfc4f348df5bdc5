--[[
  Debits a withdrawal once per reference, never below zero nor into the stakes held by pending
  purchases (`held`, on Redis Cluster: reservePurchase-4.lua), and journals it. The reference
  is bound to its amount: met again with another amount (or as a deposit's), it is refused and
  nothing changes.

  Input:
    KEYS[1] the player's wallet (hash: balance, held, ...)
    KEYS[2] the player's deposits (hash: ref -> includes/fundingRecord; withdrawals share it)
    KEYS[3] the player's journal (list)
    KEYS[4] the regulator's archive's money stream (includes/archiveEntry); on a Redis Cluster
            the player's own (docs/archive.md, "On a Redis Cluster")

    ARGV[1] amount (cents, > 0)
    ARGV[2] reference
    ARGV[3] now (ms since the epoch)
    ARGV[4] the player's id (for the archive entry)
    ARGV[5] the reference the same request bears as a deposit ('' for none): met, the request
            is refused as another operation's (-19)

  Journal line (includes/journalLine): withdrawal|-<amount>|<balance after>|<now>|<ref>

  Output:
    {1, balance, seq, line}  debited: the balance after, the journal line and its seq
    {0, balance, seq, line}  this reference debited this amount before: nothing changed (the
                             balance now, the line journaled then)
    {-11, available}         the balance less what is held is below the amount: nothing changed
    {-19, balance}           this reference was used for another amount or operation
]]
--- @include "../../redis-scripts/lua/int"
--- @include "includes/journalLine"
--- @include "includes/fundingRecord"
--- @include "includes/archiveEntry"

local w = redis.call('HMGET', KEYS[1], 'balance', 'held')
local balance = tonumber(w[1] or '0')
local record = redis.call('HGET', KEYS[2], ARGV[2])
if record then return repeatFunding(record, KEYS[3], '-' .. ARGV[1], balance) end
if ARGV[5] ~= '' and redis.call('HEXISTS', KEYS[2], ARGV[5]) == 1 then return {-19, balance} end
local amount = tonumber(ARGV[1])
local available = balance - tonumber(w[2] or '0')
if available < amount then return {-11, available} end
balance = balance - amount
local line = journalLine('withdrawal', '-' .. ARGV[1], int(balance), ARGV[3], ARGV[2])
local seq = redis.call('RPUSH', KEYS[3], line)
archiveEntry(KEYS[4], ARGV[4], line, '')
redis.call('HSET', KEYS[1], 'balance', int(balance))
redis.call('HSET', KEYS[2], ARGV[2], fundingRecord(seq, line))
return {1, balance, seq, line}
