--[[
  Opens one lane of an emission: records it, stores the lane's first block (open) and its next
  one (printed), each with the root of its page 0 (schemes 2 and 3, docs/fairness.md), and makes it
  the current emission of the lane's block sequence (one game at one price, one lane). Lane l
  of L deals blocks l, l + L, … (sequenceDealing.lua). The caller opens lanes 0..L-1 in order,
  stopping at the first refusal, then adds the emission to the emissions' index (another slot
  on a cluster: an HSETNX after this).

  Input:
    KEYS[1] the lane's current-emission pointer (string)
    KEYS[2] the lane's key base; emission and block keys are built from it (same slot)

    ARGV[1]  emissionId
    ARGV[2]  '<game>:<stake>'
    ARGV[3]  the prize table as canonical JSON (kept for listing and verification)
    ARGV[4]  block size
    ARGV[5]  block count
    ARGV[6]  prizes of tier ids 1..n in cents, comma-separated
    ARGV[7]  now (ms since the epoch)
    ARGV[8]  lanes of the emission (L, 1..block count)
    ARGV[9]  this lane (l, 0..L-1)
    ARGV[10] block l: printed units (one byte per unit)
    ARGV[11] block l: commitment (hex)
    ARGV[12] block l: seed (hex)
    ARGV[13] block l: root of page 0 (64 hex digits)
    ARGV[14] block l: its leaves' scheme ('3')
    ARGV[15..19] block l + L: units, commitment, seed, root of page 0, scheme (only when l + L < block count)

  Output:
     1 opened
    -6 an emission with this id exists already on this lane
    -7 the lane's current emission is still selling
]]
local emissionId = ARGV[1]
local emission = KEYS[2] .. 'emission:' .. emissionId
if redis.call('EXISTS', emission) == 1 then return -6 end
local current = redis.call('GET', KEYS[1])
if current and redis.call('HGET', KEYS[2] .. 'emission:' .. current, 'state') ~= 'closed' then return -7 end

local now = ARGV[7]
local lanes, lane = tonumber(ARGV[8]), tonumber(ARGV[9])
local fields = {'sequence', ARGV[2], 'table', ARGV[3], 'blockSize', ARGV[4], 'blockCount', ARGV[5],
  'createdAt', now, 'lanes', lanes, 'lane', lane, 'state', 'open', 'index', lane, 'cursor', '0'}
local tiers = 0
for prize in string.gmatch(ARGV[6], '[^,]+') do
  tiers = tiers + 1
  fields[#fields + 1] = 'prize:' .. tiers
  fields[#fields + 1] = prize
end
fields[#fields + 1] = 'tiers'
fields[#fields + 1] = tiers
redis.call('HSET', emission, unpack(fields))

local function store(index, units, commitment, seed, firstPageRoot, scheme, state)
  local block = KEYS[2] .. 'block:' .. emissionId .. '.' .. index
  redis.call('SET', block .. ':units', units)
  local info = {'state', state, 'size', ARGV[4], 'commitment', commitment, 'seed', seed,
    'scheme', scheme, 'printedAt', now}
  for t = 0, tiers do
    info[#info + 1] = 't' .. t
    info[#info + 1] = '0'
  end
  if state == 'open' then
    info[#info + 1] = 'openedAt'
    info[#info + 1] = now
  end
  redis.call('HSET', block .. ':info', unpack(info))
  redis.call('HSET', block .. ':pages', '0', firstPageRoot .. '|' .. now)
end

store(lane, ARGV[10], ARGV[11], ARGV[12], ARGV[13], ARGV[14], 'open')
if lane + lanes < tonumber(ARGV[5]) then store(lane + lanes, ARGV[15], ARGV[16], ARGV[17], ARGV[18], ARGV[19], 'printed') end
redis.call('SET', KEYS[1], emissionId)
return 1
