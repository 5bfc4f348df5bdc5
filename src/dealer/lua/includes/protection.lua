--[[
  A player's protection in the wallet hash (docs/responsible-gaming.md), read and kept by the
  purchase steps (purchaseUnits.lua, reservePurchase-4.lua), the refund of a hold
  (refundPurchase-2.lua) and deposits (deposit-4.lua): on the wallet's slot, so atomic with the
  debit on a cluster too. The rules are src/dealer/protection.ts's; the memory store's twin is
  src/dealer/memory/protection.ts. Fields:
    p:l:<kind>   a limit (stake_week, stake_day, deposit_week): <amount>|<pending amount>|<effective at>,
                 '' for none; the pending amount applies from its time on (no timer)
    p:s, p:d     the stake and deposit windows: <week total>|<day total>|<oldest hour counted in
                 the week>|<oldest in the day>|<newest hour>|<newest hour's cents> (hours are
                 ⌊ms / 3600000⌋)
    p:s:<hour>, p:d:<hour>  a bucket before the newest: <cents>|<next bucket's hour>, written
                 once, when the newest hour moves on from it (the newest's cents are the window's)
    p:x          the self-exclusion's end (ms)
    p:b          the operator's block: <reason>|<until> ('' until lifted)
    p:r          the reality check's session: <started at>|<last purchase>|<last check>
  A bucket counts until its hour's end plus the window (168 or 24 hours): never freed early.
  The buckets form a list from the oldest, each passed once by each total's start: O(1)
  amortized per stake. A stake in the newest bucket's hour costs no command of its own: the
  purchase steps read these fields in their one HMGET of the wallet and write them in their
  one HSET (stakeRefusal, countStake); only a new hour (the previous newest's field written)
  or a bucket leaving the window (the window written at once) costs one more.
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

local function readWindow(text)
  local w = {week = 0, day = 0, tailCents = 0}
  if text then
    local week, day, head, dayHead, tail, tailCents = string.match(text, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)$')
    w.week, w.day, w.head, w.dayHead, w.tail = tonumber(week), tonumber(day), tonumber(head), tonumber(dayHead), tonumber(tail)
    w.tailCents = tonumber(tailCents) or 0
  end
  return w
end

local function hourText(hour) return hour and int(hour) or '' end

local function windowText(w)
  return int(w.week) .. '|' .. int(w.day) .. '|' .. hourText(w.head) .. '|' .. hourText(w.dayHead) .. '|' .. hourText(w.tail)
    .. '|' .. (w.tail and int(w.tailCents) or '')
end

-- Bucket `hour`'s cents and the next bucket's hour (nil for the newest, whose cents are in
-- the window's own field).
local function bucket(wallet, prefix, w, hour)
  if hour == w.tail then return w.tailCents, nil end
  local cents, nextHour = string.match(redis.call('HGET', wallet, prefix .. int(hour)), '^([^|]*)|(.*)$')
  return tonumber(cents), tonumber(nextHour)
end

-- Drops from the totals what left the day and the week at hour `nowHour` (the week's buckets
-- go); true when something left (the window's field is then to be written).
local function advanceWindow(wallet, prefix, w, nowHour)
  local before = w.dayHead
  while w.dayHead and w.dayHead < nowHour - DAY_HOURS do
    local cents, nextHour = bucket(wallet, prefix, w, w.dayHead)
    w.day, w.dayHead = w.day - cents, nextHour
  end
  while w.head and w.head < nowHour - WEEK_HOURS do
    local cents, nextHour = bucket(wallet, prefix, w, w.head)
    if nextHour then redis.call('HDEL', wallet, prefix .. int(w.head)) end
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
      redis.call('HSET', wallet, prefix .. int(w.tail), int(w.tailCents) .. '|' .. int(hour))
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
    local field = prefix .. int(hour)
    local text = redis.call('HGET', wallet, field)
    if not text then return end
    local old, nextHour = string.match(text, '^([^|]*)|(.*)$')
    if tonumber(old) < cents then return end
    redis.call('HSET', wallet, field, int(tonumber(old) - cents) .. '|' .. nextHour)
  end
  w.week = w.week - cents
  if w.dayHead and hour >= w.dayHead then w.day = w.day - cents end
end

-- The session open at `now` (a purchase less than `idleMs` ago): started, last, checked; or nil.
local function openSession(text, now, idleMs)
  if not text then return nil end
  local started, last, checked = string.match(text, '^([^|]*)|([^|]*)|([^|]*)$')
  started, last, checked = tonumber(started), tonumber(last), tonumber(checked)
  if now - last >= idleMs then return nil end
  return {started = started, last = last, checked = checked}
end

-- The wallet's fields that stakeRefusal reads: the caller reads them after its own in its one
-- HMGET of the wallet.
local PURCHASE_FIELDS = {'p:b', 'p:x', 'p:l:stake_week', 'p:l:stake_day', 'p:s', 'p:r'}

--[[
  The purchase step's protection checks, before the balance's: block, self-exclusion, then
  with `settings` ('<reality check ms>|<session idle ms>', '' for none) a weekly limit set and
  the reality check, then the week's and the day's stakes. `f` is the caller's HMGET of the
  wallet, PURCHASE_FIELDS at f[from + 1 …]. Returns the refusal's reply, or nil and what
  `countStake` needs:
    {-13, until or -1}                     blocked by the operator
    {-14, until}                           self-excluded
    {-15}                                  no weekly stake limit set
    {-16, played ms, session start}        the reality check is due
    {-17, 1 (week) or 2 (day), left, next free at or -1}  the stake would pass that limit
]]
local function stakeRefusal(wallet, f, from, stake, now, settings)
  local blocked, excluded, weekLimit, dayLimit, window, session = unpack(f, from + 1, from + 6)
  if blocked then
    local blockedUntil = string.match(blocked, '|(.*)$')
    if blockedUntil == '' or tonumber(blockedUntil) > now then return {-13, tonumber(blockedUntil) or -1} end
  end
  if excluded and tonumber(excluded) > now then return {-14, tonumber(excluded)} end
  local week = effectiveLimit(weekLimit, now)
  local realityMs, idleMs = string.match(settings, '^(%d+)|(%d+)$')
  local open
  if realityMs then
    realityMs, idleMs = tonumber(realityMs), tonumber(idleMs)
    if not week then return {-15} end
    open = openSession(session, now, idleMs)
    if open and now - open.checked >= realityMs then return {-16, now - open.started, open.started} end
  end
  local w = readWindow(window)
  local hour = math.floor(now / HOUR)
  if advanceWindow(wallet, 'p:s:', w, hour) then redis.call('HSET', wallet, 'p:s', windowText(w)) end
  if week and w.week + stake > week then
    return {-17, 1, math.max(0, week - w.week), w.head and (w.head + 1 + WEEK_HOURS) * HOUR or -1}
  end
  local day = effectiveLimit(dayLimit, now)
  if day and w.day + stake > day then
    return {-17, 2, math.max(0, day - w.day), w.dayHead and (w.dayHead + 1 + DAY_HOURS) * HOUR or -1}
  end
  return nil, {window = w, hour = hour, session = open, settings = realityMs and true}
end

-- Counts a sold (or held) stake and keeps the session; `checked` is what stakeRefusal gave.
-- Appends the wallet's fields to write (p:s, p:r) to `writes`, the caller's one HSET of the
-- wallet.
local function countStake(wallet, checked, stake, now, writes)
  addToWindow(wallet, 'p:s:', checked.window, checked.hour, stake)
  local n = #writes
  writes[n + 1], writes[n + 2] = 'p:s', windowText(checked.window)
  if checked.settings then
    local s = checked.session
    local started, last, at = now, now, now
    if s then started, last, at = s.started, math.max(s.last, now), s.checked end
    writes[n + 3], writes[n + 4] = 'p:r', int(started) .. '|' .. int(last) .. '|' .. int(at)
  end
end

--[[
  The weekly deposit limit (deposit-4.lua), given the wallet's p:l:deposit_week and p:d (read
  with the caller's fields): nil and the p:d field's text to write with the credit when the
  deposit passes (counted in it); else
    {-18, left, next free at or -1}
]]
local function depositRefusal(wallet, limitText, window, amount, now)
  local w = readWindow(window)
  local hour = math.floor(now / HOUR)
  local advanced = advanceWindow(wallet, 'p:d:', w, hour)
  local limit = effectiveLimit(limitText, now)
  if limit and w.week + amount > limit then
    if advanced then redis.call('HSET', wallet, 'p:d', windowText(w)) end
    return {-18, math.max(0, limit - w.week), w.head and (w.head + 1 + WEEK_HOURS) * HOUR or -1}
  end
  addToWindow(wallet, 'p:d:', w, hour, amount)
  return nil, windowText(w)
end
