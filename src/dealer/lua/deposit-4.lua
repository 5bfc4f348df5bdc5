--[[
  Credits a deposit once per reference and journals it. The reference is bound to its amount:
  met again with another amount (or as a withdrawal's), it is refused and nothing changes.

  Input:
    KEYS[1] the player's wallet (hash: balance, ...)
    KEYS[2] the player's deposits (hash: ref -> includes/fundingRecord)
    KEYS[3] the player's journal (list)
    KEYS[4] the regulator's archive's money stream (includes/archiveEntry); on a Redis Cluster
            the player's own (docs/archive.md, "On a Redis Cluster")

    ARGV[1] amount (cents, > 0)
    ARGV[2] reference
    ARGV[3] now (ms since the epoch)
    ARGV[4] the player's id (for the archive entry)
    ARGV[5] the reference the same request bears as a withdrawal ('' for none): met, the request
            is refused as another operation's (-19)

  Journal line (includes/journalLine): deposit|<amount>|<balance after>|<now>|<ref>

  Output:
    {1, balance, seq, line}  credited: the balance after, the journal line and its seq
    {0, balance, seq, line}  this reference credited this amount before: nothing changed (the
                             balance now, the line journaled then)
    {-19, balance}           this reference was used for another amount or operation
    {-18, left, next free at or -1}  over the weekly deposit limit (includes/protection)
]]
--- @include "../../redis-scripts/lua/int"
--- @include "../../protection/lua/includes/protection"
--- @include "includes/journalLine"
--- @include "includes/fundingRecord"
--- @include "includes/archiveEntry"

-- The deposit limit read with the balance, the deposit window written with it (includes/protection).
local w = redis.call('HMGET', KEYS[1], 'balance', 'p:l:deposit_week', windowFields('p:d'))
local balance = tonumber(w[1] or '0')
local record = redis.call('HGET', KEYS[2], ARGV[2])
if record then return repeatFunding(record, KEYS[3], ARGV[1], balance) end
if ARGV[5] ~= '' and redis.call('HEXISTS', KEYS[2], ARGV[5]) == 1 then return {-19, balance} end
balance = balance + tonumber(ARGV[1])
local writes = {'balance', int(balance)}
local refused = depositRefusal(KEYS[1], w[2], windowOf(w[3], w[4], w[5], w[6]), tonumber(ARGV[1]), tonumber(ARGV[3]), writes)
if refused then return refused end
local line = journalLine('deposit', ARGV[1], int(balance), ARGV[3], ARGV[2])
local seq = redis.call('RPUSH', KEYS[3], line)
archiveEntry(KEYS[4], ARGV[4], line, '')
redis.call('HSET', KEYS[1], unpack(writes))
redis.call('HSET', KEYS[2], ARGV[2], fundingRecord(seq, line))
return {1, balance, seq, line}
