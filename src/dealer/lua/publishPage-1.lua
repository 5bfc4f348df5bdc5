--[[
  Publishes the Merkle root of one page of a printed block (scheme 2, docs/fairness.md), once:
  several dealers may hash the same page at once; the first root stored is kept and returned,
  so every process answers with the same root and publication time.

  Input:
    KEYS[1] the block's pages (hash: page -> '<root hex>|<publishedAt>')

    ARGV[1] page (0-based)
    ARGV[2] root (64 hex digits)
    ARGV[3] now (ms since the epoch)

  Output:
    { 1, '<root>|<publishedAt>' } published now
    { 0, '<root>|<publishedAt>' } published before (the stored one)
]]
local stored = redis.call('HGET', KEYS[1], ARGV[1])
if stored then return {0, stored} end
local record = ARGV[2] .. '|' .. ARGV[3]
redis.call('HSET', KEYS[1], ARGV[1], record)
return {1, record}
