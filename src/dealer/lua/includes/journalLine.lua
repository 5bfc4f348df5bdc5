--[[
  A line of a player's journal (list; seq = 1-based index); decoded by src/dealer/records.ts
  (decodeJournalLine):
    kind|amount|balance|at|ref
  kind: deposit, withdrawal, stake or prize; amount signed (stakes and withdrawals negative);
  balance after the line; ref the unit id (stake, prize) or the deposit's or withdrawal's reference.
]]
local function journalLine(kind, amount, balance, at, ref)
  return kind .. '|' .. amount .. '|' .. balance .. '|' .. at .. '|' .. ref
end
