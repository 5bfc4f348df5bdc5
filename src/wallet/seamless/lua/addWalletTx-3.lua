--[[
  Adds a record to the seamless wallet's outbox (src/wallet/seamless/wallet-transactions.ts),
  once: a record of that id already there is left as it is.

  Input:
    KEYS[1] the record (hash: the fields of WalletTx)
    KEYS[2] the shard's due index (sorted set: id by nextAttemptAt; final records leave it)
    KEYS[3] the shard's ledger index (sorted set: id by createdAt)

    ARGV[1] the record's id
    ARGV[2] nextAttemptAt (ms)
    ARGV[3] createdAt (ms)
    ARGV[4 …] field, value pairs of the record

  Output:
    1  added
    0  a record of that id exists: nothing changed
]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1
