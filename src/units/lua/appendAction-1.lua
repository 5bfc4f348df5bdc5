--[[
  Appends one entry to a unit's action log if the log has the expected length.

  Input:
    KEYS[1] the unit's action log (a list)

    ARGV[1] expected length of the log before the append
    ARGV[2] the entry (JSON text)

  Output:
     1  appended
    -1  the log does not have the expected length (someone else acted first)
]]
local rcall = redis.call
if rcall("LLEN", KEYS[1]) ~= tonumber(ARGV[1]) then
  return -1
end
rcall("RPUSH", KEYS[1], ARGV[2])
return 1
