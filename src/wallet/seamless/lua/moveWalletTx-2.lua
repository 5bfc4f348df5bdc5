--[[
  Moves an outbox record to a new state if its state is one of those expected (and, when
  given, its attempts are those expected): the compare-and-set that keeps two processes from
  both acting on one movement (src/wallet/seamless/wallet-transactions.ts).

  Input:
    KEYS[1] the record (hash)
    KEYS[2] the shard's due index (sorted set: id by nextAttemptAt)

    ARGV[1] the record's id
    ARGV[2] the states expected, comma-separated
    ARGV[3] the attempts expected ('': any)
    ARGV[4] the new state
    ARGV[5] '1' if the new state is final (the record leaves the due index)
    ARGV[6 …] field, value pairs to set (updatedAt always; nextAttemptAt to re-index it)

  Output:
    the record after, as HGETALL gives it (field, value, …)
    {}  no such record, or its state (or attempts) not those expected: nothing changed
]]
local fields = redis.call('HMGET', KEYS[1], 'state', 'attempts')
local state, attempts = fields[1], fields[2]
if not state then return {} end
local expected = false
for s in string.gmatch(ARGV[2], '[^,]+') do
  if s == state then expected = true end
end
if not expected then return {} end
if ARGV[3] ~= '' and ARGV[3] ~= attempts then return {} end
redis.call('HSET', KEYS[1], 'state', ARGV[4], unpack(ARGV, 6))
if ARGV[5] == '1' then
  redis.call('ZREM', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[2], redis.call('HGET', KEYS[1], 'nextAttemptAt'), ARGV[1])
end
return redis.call('HGETALL', KEYS[1])
