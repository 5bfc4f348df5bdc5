--[[
  The automatic withdrawal threshold (settleUnit-7.lua, creditPrize-5.lua): a prize credit
  that takes the balance from at or below the threshold to above it makes an event, recorded as
    <playerId>|<balance after>|<threshold>|<at>
  (decoded by src/dealer/records.ts, decodeThresholdEvent). `threshold` is '' when the setting
  is off. Returns the record, or nil when the credit makes no event.
]]
local function thresholdEvent(playerId, before, after, threshold, at)
  if threshold == '' then return nil end
  local t = tonumber(threshold)
  if before > t or after <= t then return nil end
  return playerId .. '|' .. int(after) .. '|' .. threshold .. '|' .. at
end
