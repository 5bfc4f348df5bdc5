--[[
  The regulator's archive entry of a journal line (docs/archive.md): added to the archive's money
  stream in the same script as the line, so that no journal line exists without it. Fields:
    p  the player's id
    j  the journal line (includes/journalLine)
    g  the unit's game ('' for deposits and withdrawals)
  The archive writer (src/archive) drains the stream into its sealed files and trims it.
]]
local function archiveEntry(stream, playerId, line, game)
  redis.call('XADD', stream, '*', 'p', playerId, 'j', line, 'g', game)
end
