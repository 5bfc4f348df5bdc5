--[[
  The sale record, at field <position> of a block's sales hash; decoded by
  src/dealer/records.ts (decodeSale), which describes it:
    playerId|requestId|tierId|prize|soldAt|balanceBefore|balanceAfter|picks
  Picks come last: they may hold '|'.
]]
local function saleRecord(playerId, requestId, tierId, prize, soldAt, balanceBefore, balanceAfter, picks)
  return playerId .. '|' .. requestId .. '|' .. tierId .. '|' .. prize .. '|' .. soldAt .. '|' ..
    balanceBefore .. '|' .. balanceAfter .. '|' .. picks
end

-- The buyer and the prize (a number) of a sale record.
local function saleBuyerAndPrize(record)
  local playerId, prize = string.match(record, '^([^|]*)|[^|]*|[^|]*|([^|]*)|')
  return playerId, tonumber(prize)
end
