--[[
  Appends a page's leaf to the log of page roots (page-log.ts, docs/fairness.md "Checkpoints"),
  once: the log is one list that only grows, and each page (`<blockId>:<page>`) has at most one
  leaf in it. Several dealers may append the same page at once; the first leaf stored is kept
  and returned, so every process publishes the page with that leaf's time.

  Input:
    KEYS[1] the log's leaves (list of leaf texts, index 0 first)
    KEYS[2] the log's index (hash: '<blockId>:<page>' -> leaf index)

    ARGV[1] '<blockId>:<page>'
    ARGV[2] the leaf's text

  Output:
    { 1, index, leaf } appended now
    { 0, index, leaf } appended before (the stored leaf)
]]
local known = redis.call('HGET', KEYS[2], ARGV[1])
if known then return {0, tonumber(known), redis.call('LINDEX', KEYS[1], known)} end
local index = redis.call('RPUSH', KEYS[1], ARGV[2]) - 1
redis.call('HSET', KEYS[2], ARGV[1], index)
return {1, index, ARGV[2]}
