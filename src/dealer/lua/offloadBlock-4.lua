--[[
  Marks a block offloaded and drops its per-unit data: the offloader has written every unit of
  the block to the files at ARGV[1] (src/offload/unit-files.ts) and now Redis forgets the sales,
  the settlements and the printed bytes. Only a closed block whose every unit is settled can be
  offloaded; its info hash (state, counts, commitment, seed) stays, with the files' path (the stored fields keep their first names, `archive` and `archivedAt`).

  Input:
    KEYS[1] the block's info (hash)
    KEYS[2] the block's sales (hash)
    KEYS[3] the block's settlements (hash)
    KEYS[4] the block's printed units (string)

    ARGV[1] the path of the block's files
    ARGV[2] now (ms since the epoch)

  Output:
      1 offloaded now
      0 offloaded before: nothing changed
    -10 the block is unknown, not closed, or has units not settled
]]
local info = redis.call('HMGET', KEYS[1], 'state', 'size', 'archive')
if info[3] then return 0 end
if info[1] ~= 'closed' or redis.call('HLEN', KEYS[3]) ~= tonumber(info[2]) then return -10 end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('HSET', KEYS[1], 'archive', ARGV[1], 'archivedAt', ARGV[2])
return 1
