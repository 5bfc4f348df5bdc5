--[[
  Appends one entry to a unit's action log if the log has the expected length, so that two
  processes acting on one unit at once cannot interleave.

  Input:
    KEYS[1] the unit's action log (list of JSON entries)

    ARGV[1] expected length of the log before the append
    ARGV[2] the entry (JSON text)

  Output:
    1  appended
    0  the log does not have the expected length (someone else acted first): nothing changed
]]
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[2])
return 1
