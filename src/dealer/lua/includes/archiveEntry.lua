--[[
  The regulator's archive entry of a journal line (docs/archive.md): added to the archive's money
  stream in the same script as the line, so that no journal line exists without it. Fields:
    p  the player's id
    j  the journal line (includes/journalLine)
    g  the unit's game ('' for deposits and withdrawals)
  A script that journals many lines (purchaseUnits.lua, a batch) adds them as one entry, their
  fields one line after the other (p, j, g, p, j, p, j, …): one XADD a batch instead of one a
  line. A line without g is of the game of the line before it: a batch, which sells one game,
  names it once (a purchase's AOF bytes, docs/dealer.md). The outbox's reader
  (src/dealer/redis/outbox.ts) gives back one record per line, in order. The archive writer
  (src/archive) drains the stream into its sealed files and trims it.
]]
local function archiveEntry(stream, playerId, line, game)
  redis.call('XADD', stream, '*', 'p', playerId, 'j', line, 'g', game)
end

-- Appends a line's fields to `fields`, the entry of many lines that archiveEntries adds; its g
-- only on the entry's first line and where the game changes.
local archivedGame
local function archiveLine(fields, playerId, line, game)
  local n = #fields
  fields[n + 1], fields[n + 2], fields[n + 3], fields[n + 4] = 'p', playerId, 'j', line
  if n == 0 or game ~= archivedGame then
    fields[n + 5], fields[n + 6] = 'g', game
    archivedGame = game
  end
end

-- Adds the lines gathered by archiveLine as one entry (none: nothing).
local function archiveEntries(stream, fields)
  if #fields > 0 then redis.call('XADD', stream, '*', unpack(fields)) end
end
