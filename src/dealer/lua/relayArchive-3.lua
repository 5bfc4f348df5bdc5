--[[
  Relays a player's archive entries from the player's own stream (written on the player's slot
  by finishPurchase-5, creditPrize-5, deposit-4, withdraw-4, changeProtection-3 on a Redis
  Cluster) to the money stream of the player's archive shard, which the archive writer drains
  (docs/archive.md, "On a Redis Cluster"). Once per entry: the shard remembers, per player, the
  id of the last entry it took; entries at or before it are skipped, so a relay cut before the
  player's stream was trimmed, and run again, adds nothing twice. Ids of one stream only grow,
  and entries are given in order, so the one id per player is enough.

  The mark lives in the hash of the idempotency window of the relay's time and is the later of
  that window's and the previous one's: a relay repeated within a window of the one before
  (the next settlement, deposit or recovery of that player: minutes) is recognised, whatever
  the window the caller's clock put it in.

  Input:
    KEYS[1] the shard's money stream (fields p, j, g or p, c: includes/archiveEntry, changeProtection-3)
    KEYS[2] the shard's marks of this window (hash: playerId -> last entry id relayed)
    KEYS[3] the shard's marks of the window before

    ARGV[1] the player's id
    ARGV[2] time to live of KEYS[2] in ms (to the end of the next window)
    ARGV[3…] the entries, each: its id in the player's stream, n, then n values (field, value, …)

  Output: how many entries were added now (the others were before)
]]
local function parsed(id)
  local ms, n = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(n)
end

-- Whether stream id a comes after b ('' comes before every id).
local function after(a, b)
  if b == '' then return true end
  local am, an = parsed(a)
  local bm, bn = parsed(b)
  return am > bm or (am == bm and an > bn)
end

local player = ARGV[1]
local mark = redis.call('HGET', KEYS[2], player) or ''
local before = redis.call('HGET', KEYS[3], player) or ''
if before ~= '' and after(before, mark) then mark = before end
local added = 0
local i = 3
while i <= #ARGV do
  local id, n = ARGV[i], tonumber(ARGV[i + 1])
  if after(id, mark) then
    redis.call('XADD', KEYS[1], '*', unpack(ARGV, i + 2, i + 1 + n))
    mark = id
    added = added + 1
  end
  i = i + 2 + n
end
-- Written even when nothing was added: this connection's WAIT then covers a concurrent relay's
-- entries that it found marked, before the caller trims the player's stream.
redis.call('HSET', KEYS[2], player, mark)
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return added
