--[[
  Gives back a unit's start whose purchase was refused (src/play/redis-pacer.ts, releaseUnit):
  the player's last start becomes the one before it again, only if the start given back is
  still the last (a later start stays).

  Input:
    KEYS[1] the player's last start (string: `<ms>|<holder>`)

    ARGV[1] the start given back (`<ms>|<holder>`)
    ARGV[2] the start it replaced ('' none)
    ARGV[3] the life left of the start it replaced (ms; 0 or less: it refuses nothing now)

  Output:
    1  given back
    0  not the last start: nothing changed
]]
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' or tonumber(ARGV[3]) <= 0 then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1
