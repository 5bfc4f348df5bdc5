--[[
  A Lua number as whole decimal text (cents, balances): tostring would give '1e+15' or '5.0'.
]]
local function int(n) return string.format('%d', n) end
