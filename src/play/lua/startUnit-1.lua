--[[
  Takes the start of a player's unit (src/play/redis-pacer.ts, startUnit): no two units of a
  player start closer than the new unit's game's pace, whichever process sells them.

  Input:
    KEYS[1] the player's last start (string: `<ms>|<holder>`)

    ARGV[1] now (ms, the store's clock as the server reads it)
    ARGV[2] the pace of the new unit's game (ms)
    ARGV[3] the holder: an id of this start, for its release
    ARGV[4] the start's life (ms): past the longest pace, it refuses nothing

  Output:
    {1, previous}  taken; previous is the start it replaced (`<ms>|<holder>`, '' none), for the release
    {0, wait}      refused: the player's last start is too recent; wait ms until it is not
]]
local now = tonumber(ARGV[1])
local pace = tonumber(ARGV[2])
local last = redis.call('GET', KEYS[1])
-- An unpaced game never waits, even on a last start stamped by a process whose clock reads a little ahead.
if last and pace > 0 then
  local wait = tonumber(string.match(last, '^(%d+)|')) + pace - now
  if wait > 0 then return {0, wait} end
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[3], 'PX', ARGV[4])
return {1, last or ''}
