--[[
  The sequence's step of settling a unit on Redis Cluster (docs/dealer.md): marks the sale
  settled once (includes/markSettled), after the prize was credited on the buyer's slot
  (creditPrize-5.lua). A settlement cut between the two leaves the unit in the unsettled set,
  where the sweeper settles it again: a no-op credit, then this mark.

  Input:
    KEYS[1] the block's sales (hash: position -> sale record, includes/saleRecord)
    KEYS[2] the block's settlements (hash: position -> settlement time)
    KEYS[3] the sequence's unsettled units (sorted set)

    ARGV[1] position
    ARGV[2] unitId
    ARGV[3] playerId the caller read from the sale
    ARGV[4] now (ms since the epoch)

  Output:
    {1, prize}  settled now
    {0, prize}  settled before
    {-5}        no such sale, or it is not that player's
]]
--- @include "includes/saleRecord"
--- @include "includes/markSettled"

local settledNow, prize = markSettled(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
if settledNow == nil then return {-5} end
return {settledNow and 1 or 0, prize}
