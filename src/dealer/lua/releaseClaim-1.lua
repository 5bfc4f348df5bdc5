--[[
  Drops a dealer's claim to hash a Merkle page (src/dealer/redis/pages.ts) when its hashing
  failed, so that no one waits for it; only while the claim is still this dealer's: a claim that
  ran out while its dealer stalled may since be another dealer's, which must stand.

  Input:
    KEYS[1] the claim (string: the claiming dealer's token)

    ARGV[1] this dealer's token

  Output:
    1  dropped
    0  not this dealer's (another's, or gone)
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
