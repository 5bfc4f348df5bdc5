--[[
  The player's last step of a purchase on Redis Cluster: the pending purchase becomes the sale
  the sequence dealt (includes/finishPending). Idempotent: once finished, nothing changes.

  Input:
    KEYS[1] the player's wallet (hash, as in reservePurchase-4.lua)
    KEYS[2] the player's pending purchases (hash)
    KEYS[3] the player's journal (list)
    KEYS[4] the player's request ids of the purchase's window (hash)
    KEYS[5] the player's archive stream (includes/archiveEntry): the stake's entry

    ARGV[1] '<game>:<stake>|<requestId>'
    ARGV[2] the unit dealt
    ARGV[3] stake (cents)
    ARGV[4] time of the purchase (ms since the epoch)
    ARGV[5] time to live of KEYS[4] in ms (to the end of the next window)
    ARGV[6] the player's id (for the archive entry)

  Journal line (includes/journalLine): stake|-<stake>|<balance after>|<time>|<unitId>

  Output:
    1  finished now
    0  nothing pending under this request (finished before)
]]
--- @include "../../redis-scripts/lua/int"
--- @include "includes/journalLine"
--- @include "includes/archiveEntry"
--- @include "includes/finishPending"

return finishPending(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5], KEYS[5], ARGV[6]) and 1 or 0
