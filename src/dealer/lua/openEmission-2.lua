--[[
  Opens an emission: records it, stores its first block (open) and the next one (printed), and
  makes it the current emission of its block sequence (one game at one price). The caller
  then adds it to the emissions' index (another slot on a cluster: an HSETNX after this).

  Input:
    KEYS[1] the sequence's current-emission pointer (string)
    KEYS[2] the sequence's key base; emission and block keys are built from it (same slot)

    ARGV[1]  emissionId
    ARGV[2]  '<game>:<stake>'
    ARGV[3]  the prize table as canonical JSON (kept for listing and verification)
    ARGV[4]  block size
    ARGV[5]  block count
    ARGV[6]  prizes of tier ids 1..n in cents, comma-separated
    ARGV[7]  now (ms since the epoch)
    ARGV[8]  block 0: printed units (one byte per unit)
    ARGV[9]  block 0: commitment (hex)
    ARGV[10] block 0: seed (hex)
    ARGV[11..13] block 1: units, commitment, seed (only when block count > 1)

  Output:
     1 opened
    -6 an emission with this id exists already on this sequence
    -7 the sequence's current emission is still selling
]]
local emissionId = ARGV[1]
local emission = KEYS[2] .. 'emission:' .. emissionId
if redis.call('EXISTS', emission) == 1 then return -6 end
local current = redis.call('GET', KEYS[1])
if current and redis.call('HGET', KEYS[2] .. 'emission:' .. current, 'state') ~= 'closed' then return -7 end

local now = ARGV[7]
local fields = {'sequence', ARGV[2], 'table', ARGV[3], 'blockSize', ARGV[4], 'blockCount', ARGV[5],
  'createdAt', now, 'state', 'open', 'index', '0', 'cursor', '0'}
local tiers = 0
for prize in string.gmatch(ARGV[6], '[^,]+') do
  tiers = tiers + 1
  fields[#fields + 1] = 'prize:' .. tiers
  fields[#fields + 1] = prize
end
fields[#fields + 1] = 'tiers'
fields[#fields + 1] = tiers
redis.call('HSET', emission, unpack(fields))

local function store(index, units, commitment, seed, state)
  local block = KEYS[2] .. 'block:' .. emissionId .. '.' .. index
  redis.call('SET', block .. ':units', units)
  local info = {'state', state, 'size', ARGV[4], 'commitment', commitment, 'seed', seed,
    'printedAt', now}
  for t = 0, tiers do
    info[#info + 1] = 't' .. t
    info[#info + 1] = '0'
  end
  if state == 'open' then
    info[#info + 1] = 'openedAt'
    info[#info + 1] = now
  end
  redis.call('HSET', block .. ':info', unpack(info))
end

store(0, ARGV[8], ARGV[9], ARGV[10], 'open')
if tonumber(ARGV[5]) > 1 then store(1, ARGV[11], ARGV[12], ARGV[13], 'printed') end
redis.call('SET', KEYS[1], emissionId)
return 1
