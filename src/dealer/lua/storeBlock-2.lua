--[[
  Stores a printed block of an emission (the one after the open block, printed ahead), unless a
  block with that index is printed already: several dealers may print it at once, the first
  one stored wins and the others' prints are dropped. The root of its page 0 is stored with
  it (schemes 2 and 3, docs/fairness.md): a block is never stored without it, whatever fails after.

  Input:
    KEYS[1] the emission (hash)
    KEYS[2] the sequence's key base; block keys are built from it (same slot)

    ARGV[1] emissionId
    ARGV[2] block index
    ARGV[3] printed units (one byte per unit)
    ARGV[4] commitment (hex)
    ARGV[5] seed (hex)
    ARGV[6] root of page 0 (64 hex digits)
    ARGV[7] its leaves' scheme ('3'; a block without it in its info is of scheme 2, or 1 without page 0)
    ARGV[8] now (ms since the epoch)

  Output:
     1 stored
     0 that block was printed already
    -8 no such emission, or the index is past its last block
]]
local e = redis.call('HMGET', KEYS[1], 'blockCount', 'blockSize', 'tiers')
local index = tonumber(ARGV[2])
if not e[1] or index >= tonumber(e[1]) then return -8 end
local block = KEYS[2] .. 'block:' .. ARGV[1] .. '.' .. ARGV[2]
if redis.call('EXISTS', block .. ':info') == 1 then return 0 end
redis.call('SET', block .. ':units', ARGV[3])
local info = {'state', 'printed', 'size', e[2], 'commitment', ARGV[4], 'seed', ARGV[5],
  'scheme', ARGV[7], 'printedAt', ARGV[8]}
for t = 0, tonumber(e[3]) do
  info[#info + 1] = 't' .. t
  info[#info + 1] = '0'
end
redis.call('HSET', block .. ':info', unpack(info))
redis.call('HSET', block .. ':pages', '0', ARGV[6] .. '|' .. ARGV[8])
return 1
