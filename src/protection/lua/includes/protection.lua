--[[
  A player's protection in the wallet hash (docs/responsible-gaming.md), read and kept by the
  purchase steps (purchaseUnits.lua, reservePurchase-4.lua), the refund of a hold
  (refundPurchase-2.lua) and deposits (deposit-4.lua): on the wallet's slot, so atomic with the
  debit on a cluster too. The rules are src/protection/rules.ts's; the memory store's twin is
  src/protection/memory.ts. Fields:
    p:l:<kind>   a limit (stake_week, stake_day, deposit_week): <amount>|<pending amount>|<effective at>,
                 '' for none; the pending amount applies from its time on (no timer)
    p:s          the stake window's hours: <oldest hour counted in the week>|<oldest in the
                 day>|<newest hour> (hours are ⌊ms / 3600000⌋)
    p:sw, p:sd, p:sn  its week's total, its day's total and its newest hour's cents
    p:d, p:dw, p:dd, p:dn  the same for deposits
    p:s:<hour>, p:d:<hour>  a bucket before the newest: <cents>|<next bucket's hour>, written
                 once, when the newest hour moves on from it (the newest's cents are in p:sn)
    p:ok         the allowance: <cents left>|<last purchase ms>|<valid until ms>|<cents left
                 when granted>|<purchase settings>, written by a purchase that passed every
                 check: until then, and while the session stays open under the same settings,
                 a stake within the cents left passes every check too (nothing else can have
                 changed: every protection change drops the allowance first). Such a stake
                 only lowers the cents left; the stakes it took (granted − left) belong to the
                 window's newest hour and are folded into p:sw, p:sd and p:sn by the next
                 purchase that checks in full, a refund, a change, or a reader.
    p:o:stake_week, p:o:stake_day  the operator's limits (cents, given at launch): the stricter
                 of the player's and the operator's applies
    p:x          the self-exclusion's end (ms)
    p:b          the operator's block: <reason>|<until> ('' until lifted)
    p:rs, p:rc, p:rl  the reality check's session: started at, last check, last purchase (ms;
                 a newer last purchase may be in p:ok)
    p:ri         the player's reality check interval (ms), used when shorter than the settings'
    p:l:time_week, p:l:time_day  the playing-time limits (ms of time played), as p:l:<kind>
    p:t, p:tw, p:td, p:tn, p:t:<hour>  the time-played window (ms), as the stake window's: each
                 purchase counts there the gap since the one before, up to PLAYED_GAP (rules.ts's
                 PLAYED_GAP_MS), in the bucket of its hour
    p:tp         the last purchase checked in full (ms); the allowance's purchases, each less
                 than PLAYED_GAP after the one before, played from it to the allowance's last
                 purchase, folded into p:tn like its stakes
  A bucket counts until its hour's end plus the window (168 or 24 hours): never freed early.
  The buckets form a list from the oldest, each passed once by each total's start: O(1)
  amortized per stake. Cost: a purchase reads one field (p:ok) in the purchase step's one
  HMGET of the wallet and, within its allowance, writes it back in its one HSET: one match and
  two numbers formatted (stakeRefusal, countStake). A purchase past the allowance's cents or
  time (a new hour, the reality check due, a session idle, a playing-time limit reached, more
  than PLAYED_GAP since the player's previous purchase) reads the rest in one more HMGET and
  checks in full.
]]
local HOUR = 3600000
local WEEK_HOURS, DAY_HOURS = 168, 24

-- The limit that applies at `now` (nil: none).
local function effectiveLimit(text, now)
  if not text or text == '' then return nil end
  local amount, pending, at = string.match(text, '^([^|]*)|([^|]*)|([^|]*)$')
  if at ~= '' and now >= tonumber(at) then amount = pending end
  return tonumber(amount)
end

-- A window from its fields: totals, newest cents and hours text (p:sw, p:sd, p:sn, p:s).
local function windowOf(week, day, newest, hours)
  local w = {week = tonumber(week or '0'), day = tonumber(day or '0'), tailCents = tonumber(newest or '0')}
  if hours then
    local head, dayHead, tail = string.match(hours, '^([^|]*)|([^|]*)|([^|]*)$')
    w.head, w.dayHead, w.tail = tonumber(head), tonumber(dayHead), tonumber(tail)
  end
  return w
end

-- The fields of window `prefix` ('p:s' or 'p:d') that windowOf takes, in its order.
local function windowFields(prefix) return prefix .. 'w', prefix .. 'd', prefix .. 'n', prefix end

local function hourText(hour) return hour and int(hour) or '' end

-- Appends window `w`'s fields (all four) to `writes`, an HSET's field-value list.
local function windowWrites(prefix, w, writes)
  local n = #writes
  writes[n + 1], writes[n + 2] = prefix .. 'w', w.week
  writes[n + 3], writes[n + 4] = prefix .. 'd', w.day
  writes[n + 5], writes[n + 6] = prefix .. 'n', w.tail and w.tailCents or 0
  writes[n + 7], writes[n + 8] = prefix, hourText(w.head) .. '|' .. hourText(w.dayHead) .. '|' .. hourText(w.tail)
end

-- Adds to stake window `w` what allowance `ok` (p:ok) took since granted, in the newest hour;
-- returns the session's last purchase, `lastAt` (p:rl) or the allowance's if later.
local function foldAllowance(w, ok, lastAt)
  local left, last, granted = string.match(ok, '^(%d+)|(%d+)|%d+|(%d+)|')
  local taken = tonumber(granted) - tonumber(left)
  w.week, w.day, w.tailCents = w.week + taken, w.day + taken, w.tailCents + taken
  return math.max(lastAt or 0, tonumber(last))
end

-- Writes stake window `w` (an allowance folded in) and the session's last purchase, and drops
-- the allowance.
local function keepFolded(wallet, w, lastAt)
  local writes = {'p:rl', lastAt}
  windowWrites('p:s', w, writes)
  redis.call('HSET', wallet, unpack(writes))
  redis.call('HDEL', wallet, 'p:ok')
end

-- Time played: a pause counts up to PLAYED_GAP (src/protection/rules.ts's PLAYED_GAP_MS).
local PLAYED_GAP = 120000
local PLAYED_FIELDS = {'p:l:time_week', 'p:l:time_day', 'p:tp', windowFields('p:t')}

-- The time played as stored (`f`: PLAYED_FIELDS's values, read if not given), with what
-- allowance `ok` (if any) played folded into the newest hour: from p:tp to its last purchase.
-- `changed`: the fold is to be written.
local function playedOf(wallet, ok, f)
  f = f or redis.call('HMGET', wallet, unpack(PLAYED_FIELDS))
  local t = {weekLimit = f[1], dayLimit = f[2], last = tonumber(f[3]), w = windowOf(f[4], f[5], f[6], f[7])}
  local okLast = ok and t.last and t.w.tail and tonumber(string.match(ok, '^%d+|(%d+)|'))
  if okLast and okLast > t.last then
    local taken = okLast - t.last
    t.w.week, t.w.day, t.w.tailCents = t.w.week + taken, t.w.day + taken, t.w.tailCents + taken
    t.last, t.changed = okLast, true
  end
  return t
end

-- Appends the time played's fields (window and last purchase) to `writes`.
local function playedWrites(t, writes)
  windowWrites('p:t', t.w, writes)
  if t.last then writes[#writes + 1], writes[#writes + 2] = 'p:tp', int(t.last) end
end

-- Folds the allowance, if any, into the stake window and the time played: before any change
-- of the player's protection (changeProtection-3.lua) and a refund (refundPurchase-2.lua).
local function dropAllowance(wallet)
  local f = redis.call('HMGET', wallet, 'p:ok', 'p:rl', 'p:sw', 'p:sd', 'p:sn', 'p:s')
  if not f[1] then return end
  local t = playedOf(wallet, f[1])
  if t.changed then
    local writes = {}
    playedWrites(t, writes)
    redis.call('HSET', wallet, unpack(writes))
  end
  local w = windowOf(f[3], f[4], f[5], f[6])
  keepFolded(wallet, w, foldAllowance(w, f[1], tonumber(f[2])))
end

-- Bucket `hour`'s cents and the next bucket's hour (nil for the newest, whose cents are in
-- the window's own field).
local function bucket(wallet, prefix, w, hour)
  if hour == w.tail then return w.tailCents, nil end
  local cents, nextHour = string.match(redis.call('HGET', wallet, prefix .. ':' .. int(hour)), '^([^|]*)|(.*)$')
  return tonumber(cents), tonumber(nextHour)
end

-- Drops from the totals what left the day and the week at hour `nowHour` (the week's buckets
-- go); true when something left (the window's fields are then to be written).
local function advanceWindow(wallet, prefix, w, nowHour)
  local before = w.dayHead
  while w.dayHead and w.dayHead < nowHour - DAY_HOURS do
    local cents, nextHour = bucket(wallet, prefix, w, w.dayHead)
    w.day, w.dayHead = w.day - cents, nextHour
  end
  while w.head and w.head < nowHour - WEEK_HOURS do
    local cents, nextHour = bucket(wallet, prefix, w, w.head)
    if nextHour then redis.call('HDEL', wallet, prefix .. ':' .. int(w.head)) end
    w.week, w.head, before = w.week - cents, nextHour, -1
  end
  if not w.head then w.tail, w.tailCents = nil, 0 end
  return before ~= w.dayHead
end

-- Counts `cents` at `hour`, or in the newest bucket when a clock behind gives an earlier hour.
-- The newest bucket's cents stay in the window's field: a bucket's own field is written once,
-- when a newer hour follows it.
local function addToWindow(wallet, prefix, w, hour, cents)
  if w.tail and hour <= w.tail then
    w.tailCents = w.tailCents + cents
    w.dayHead = w.dayHead or w.tail
  else
    if w.tail then
      redis.call('HSET', wallet, prefix .. ':' .. int(w.tail), int(w.tailCents) .. '|' .. int(hour))
    else
      w.head = hour
    end
    w.tail, w.tailCents = hour, cents
    w.dayHead = w.dayHead or hour
  end
  w.week, w.day = w.week + cents, w.day + cents
end

-- Takes `cents` back from bucket `hour` (a hold refunded), if still counted and holding them.
local function takeFromWindow(wallet, prefix, w, hour, cents)
  if not w.head or hour < w.head or hour > w.tail then return end
  if hour == w.tail then
    if w.tailCents < cents then return end
    w.tailCents = w.tailCents - cents
  else
    local field = prefix .. ':' .. int(hour)
    local text = redis.call('HGET', wallet, field)
    if not text then return end
    local old, nextHour = string.match(text, '^([^|]*)|(.*)$')
    if tonumber(old) < cents then return end
    redis.call('HSET', wallet, field, int(tonumber(old) - cents) .. '|' .. nextHour)
  end
  w.week = w.week - cents
  if w.dayHead and hour >= w.dayHead then w.day = w.day - cents end
end

-- When window `w`'s amounts, `total` from bucket `hour` on, fall below `below` as its buckets
-- leave a window of `hours`: that bucket's end of window, or -1.
local function freedBelow(wallet, prefix, w, hour, total, hours, below)
  while hour do
    local amount, nextHour = bucket(wallet, prefix, w, hour)
    total = total - amount
    if total < below then return (hour + 1 + hours) * HOUR end
    hour = nextHour
  end
  return -1
end

--[[
  The playing-time limits (rules.ts's playedRefusal), with `t` from playedOf advanced to now:
  refused once the time played, the open gap counted, reaches a limit; play is possible again
  when what is counted falls a pause bound below it. nil (and `t` keeps the open gap and the
  limits for countStake), or
    {-20, 1 (week) or 2 (day), 0, play again at or -1}
]]
local function playedRefusal(wallet, t, now)
  t.open = t.last and math.min(PLAYED_GAP, math.max(0, now - t.last)) or 0
  t.weekAmount, t.dayAmount = effectiveLimit(t.weekLimit, now), effectiveLimit(t.dayLimit, now)
  if t.weekAmount and t.w.week + t.open >= t.weekAmount then
    return {-20, 1, 0, freedBelow(wallet, 'p:t', t.w, t.w.head, t.w.week, WEEK_HOURS, t.weekAmount - PLAYED_GAP)}
  end
  if t.dayAmount and t.w.day + t.open >= t.dayAmount then
    return {-20, 2, 0, freedBelow(wallet, 'p:t', t.w, t.w.dayHead, t.w.day, DAY_HOURS, t.dayAmount - PLAYED_GAP)}
  end
  return nil
end

-- Counts the gap a purchase ends in the time played, its hour's bucket, and keeps the
-- allowance's `validUntil` to the moment the time played would reach a limit.
local function countPlayed(wallet, t, hour, now, validUntil, writes)
  addToWindow(wallet, 'p:t', t.w, hour, t.open)
  t.last = math.max(t.last or now, now)
  playedWrites(t, writes)
  if t.weekAmount then validUntil = math.min(validUntil, now + t.weekAmount - t.w.week) end
  if t.dayAmount then validUntil = math.min(validUntil, now + t.dayAmount - t.w.day) end
  return validUntil
end

-- The purchase settings ('<reality check ms>|<session idle ms>', '' for none), parsed once
-- per script call: a batch's purchases share them.
local settingsText, realityCheckMs, sessionIdleMs
local function purchaseSettings(text)
  if text ~= settingsText then
    local reality, idle = string.match(text, '^(%d+)|(%d+)$')
    settingsText, realityCheckMs, sessionIdleMs = text, tonumber(reality), tonumber(idle)
  end
  return realityCheckMs, sessionIdleMs
end

-- The wallet's field that stakeRefusal reads: the caller reads it after its own in its one
-- HMGET of the wallet.
local PURCHASE_FIELDS = {'p:ok'}

-- What a purchase checked in full reads, in one more HMGET: the time played's fields last.
local CHECK_FIELDS = {'p:b', 'p:x', 'p:l:stake_week', 'p:l:stake_day', 'p:o:stake_week', 'p:o:stake_day', 'p:rc', 'p:rl', 'p:ri', windowFields('p:s')}
local PLAYED_AT = #CHECK_FIELDS
for i, field in ipairs(PLAYED_FIELDS) do CHECK_FIELDS[PLAYED_AT + i] = field end

-- The limit that decides, the stricter of the player's `own` and the operator's `operator`
-- (text, nil for none), and whose it is: 1 the player's, 2 the operator's.
local function stricterLimit(own, operator)
  operator = tonumber(operator)
  if operator and (not own or operator < own) then return operator, 2 end
  return own, 1
end

-- No limit: an allowance no stake reaches.
local UNLIMITED = 1e15

--[[
  The purchase's checks in full (stakeRefusal's, past the allowance), with `ok` the allowance
  if any (folded into the window first).
]]
local function checkInFull(wallet, ok, stake, now, settings)
  local f = redis.call('HMGET', wallet, unpack(CHECK_FIELDS))
  local blocked, excluded, weekLimit, dayLimit, operatorWeek, operatorDay, checkedAt, lastAt, chosenMs, week, day, newest, hours = unpack(f, 1, PLAYED_AT)
  local w = windowOf(week, day, newest, hours)
  lastAt = tonumber(lastAt)
  if ok then lastAt = foldAllowance(w, ok, lastAt) end
  local hour = math.floor(now / HOUR)
  local moved = advanceWindow(wallet, 'p:s', w, hour)
  local played = playedOf(wallet, ok, {unpack(f, PLAYED_AT + 1, #CHECK_FIELDS)})
  local playedMoved = advanceWindow(wallet, 'p:t', played.w, hour)
  -- A refusal keeps what the windows became (the allowance folded, hours passed).
  local function refuse(reply)
    if played.changed or playedMoved then
      local writes = {}
      playedWrites(played, writes)
      redis.call('HSET', wallet, unpack(writes))
    end
    if ok then keepFolded(wallet, w, lastAt)
    elseif moved then
      local writes = {}
      windowWrites('p:s', w, writes)
      redis.call('HSET', wallet, unpack(writes))
    end
    return reply
  end
  if blocked then
    local blockedUntil = string.match(blocked, '|(.*)$')
    if blockedUntil == '' or tonumber(blockedUntil) > now then return refuse({-13, tonumber(blockedUntil) or -1}) end
  end
  if excluded and tonumber(excluded) > now then return refuse({-14, tonumber(excluded)}) end
  local weekAmount, weekBy = stricterLimit(effectiveLimit(weekLimit, now), operatorWeek)
  local realityMs, idleMs = purchaseSettings(settings)
  -- The player's interval, when shorter than the settings'.
  if realityMs and tonumber(chosenMs) then realityMs = math.min(realityMs, tonumber(chosenMs)) end
  -- The open session's last purchase and last check; none: this purchase opens one.
  local session
  if realityMs then
    if not weekAmount then return refuse({-15}) end
    if lastAt and now - lastAt < idleMs then
      checkedAt = tonumber(checkedAt)
      if now - checkedAt >= realityMs then
        local started = tonumber(redis.call('HGET', wallet, 'p:rs'))
        return refuse({-16, now - started, started})
      end
      session = {last = lastAt, checked = checkedAt}
    end
  end
  local playedRefused = playedRefusal(wallet, played, now)
  if playedRefused then return refuse(playedRefused) end
  if weekAmount and w.week + stake > weekAmount then
    return refuse({-17, 1, math.max(0, weekAmount - w.week), w.head and (w.head + 1 + WEEK_HOURS) * HOUR or -1, weekBy})
  end
  local dayAmount, dayBy = stricterLimit(effectiveLimit(dayLimit, now), operatorDay)
  if dayAmount and w.day + stake > dayAmount then
    return refuse({-17, 2, math.max(0, dayAmount - w.day), w.dayHead and (w.dayHead + 1 + DAY_HOURS) * HOUR or -1, dayBy})
  end
  return nil, {window = w, hour = hour, session = session, realityMs = realityMs, settings = settings,
    weekAmount = weekAmount, dayAmount = dayAmount, lastAt = lastAt, played = played}
end

--[[
  The purchase step's protection checks, before the balance's: block, self-exclusion, then
  with `settings` ('<reality check ms>|<session idle ms>', '' for none) a weekly limit set and
  the reality check, then the playing-time limits, then the week's and the day's stakes. `f` is the caller's HMGET of the
  wallet, PURCHASE_FIELDS at f[from + 1]; `now` the time in ms, `nowText` the same as the
  caller's argument. Within the allowance, nothing else is read. Returns
  the refusal's reply, or nil and what `countStake` needs:
    {-13, until or -1}                     blocked by the operator
    {-14, until}                           self-excluded
    {-15}                                  no weekly stake limit set
    {-16, played ms, session start}        the reality check is due
    {-17, 1 (week) or 2 (day), left, next free at or -1, whose: 1 the player's or 2 the operator's}
                                           the stake would pass that limit
    {-20, 1 (week) or 2 (day), 0, play again at or -1}    the time played reached that limit
]]
local function stakeRefusal(wallet, f, from, stake, now, nowText, settings)
  local ok = f[from + 1]
  if ok then
    local left, lastText, rest, validUntil, grantedUnder = string.match(ok, '^(%d+)|(%d+)|((%d+)|%d+|(.*))$')
    local last = tonumber(lastText)
    left = tonumber(left)
    if grantedUnder == settings and stake <= left and now < tonumber(validUntil) and now - last < PLAYED_GAP then
      local _, idleMs = purchaseSettings(settings)
      if not idleMs or now - last < idleMs then
        return nil, int(left - stake) .. '|' .. (now > last and nowText or lastText) .. '|' .. rest
      end
    end
  end
  return checkInFull(wallet, ok, stake, now, settings)
end

-- Counts a sold (or held) stake and keeps the session; `checked` is what stakeRefusal gave
-- (the allowance's new text, or what checkInFull gave). Appends the wallet's fields to write
-- to `writes`, the caller's one HSET of the wallet.
local function countStake(wallet, checked, stake, now, writes)
  local n = #writes
  if type(checked) == 'string' then
    writes[n + 1], writes[n + 2] = 'p:ok', checked
    return
  end
  local w = checked.window
  addToWindow(wallet, 'p:s', w, checked.hour, stake)
  windowWrites('p:s', w, writes)
  local last, validUntil = math.max(checked.lastAt or 0, now), (w.tail + 1) * HOUR
  if checked.realityMs then
    local s = checked.session
    n = #writes
    if s then
      last = math.max(s.last, now)
      validUntil = math.min(validUntil, s.checked + checked.realityMs)
    else
      writes[n + 1], writes[n + 2], writes[n + 3], writes[n + 4] = 'p:rs', now, 'p:rc', now
      last, validUntil = now, math.min(validUntil, now + checked.realityMs)
    end
    writes[#writes + 1], writes[#writes + 2] = 'p:rl', last
  end
  validUntil = countPlayed(wallet, checked.played, checked.hour, now, validUntil, writes)
  local left = UNLIMITED
  if checked.weekAmount then left = math.min(left, checked.weekAmount - w.week) end
  if checked.dayAmount then left = math.min(left, checked.dayAmount - w.day) end
  left = int(math.max(0, left))
  n = #writes
  writes[n + 1], writes[n + 2] = 'p:ok', left .. '|' .. int(last) .. '|' .. int(validUntil) .. '|' .. left .. '|' .. checked.settings
end

--[[
  The weekly deposit limit (deposit-4.lua), given the wallet's p:l:deposit_week and its deposit
  window's fields (windowFields('p:d'), read with the caller's): nil and the window's fields
  appended to `writes` (the caller's HSET with the credit) when the deposit passes (counted in
  it); else
    {-18, left, next free at or -1}
]]
local function depositRefusal(wallet, limitText, w, amount, now, writes)
  local hour = math.floor(now / HOUR)
  local advanced = advanceWindow(wallet, 'p:d', w, hour)
  local limit = effectiveLimit(limitText, now)
  if limit and w.week + amount > limit then
    if advanced then
      local moved = {}
      windowWrites('p:d', w, moved)
      redis.call('HSET', wallet, unpack(moved))
    end
    return {-18, math.max(0, limit - w.week), w.head and (w.head + 1 + WEEK_HOURS) * HOUR or -1}
  end
  addToWindow(wallet, 'p:d', w, hour, amount)
  windowWrites('p:d', w, writes)
  return nil
end
