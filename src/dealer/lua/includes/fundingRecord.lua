--[[
  The idempotency record of a deposit or a withdrawal (deposit-4.lua, withdraw-4.lua), at
  field <ref> of the player's deposits hash:
    <seq>|<journal line>
  the line it journaled (includes/journalLine), whose amount binds the reference to its
  request. Records written before the line was kept hold <seq> alone: the line is read from
  the journal then.
]]
local function fundingRecord(seq, line)
  return seq .. '|' .. line
end

-- The answer to a reference met again: {0, balance, seq, line} when `record` journaled
-- `amount` (signed as the operation's: '250' for a deposit, '-250' for a withdrawal),
-- {-19, balance} when it was another request.
local function repeatFunding(record, journal, amount, balance)
  local seq, line = string.match(record, '^(%d+)|(.*)$')
  if not seq then seq, line = record, redis.call('LINDEX', journal, tonumber(record) - 1) end
  if string.match(line, '^[^|]*|([^|]*)|') ~= amount then return {-19, balance} end
  return {0, balance, tonumber(seq), line}
end
