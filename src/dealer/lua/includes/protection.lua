--[[
  A player's protection in the wallet hash (docs/responsible-gaming.md), read and kept by the
  purchase steps (purchaseUnits.lua, reservePurchase-4.lua), the refund of a hold
  (refundPurchase-2.lua) and deposits (deposit-3.lua): on the wallet's slot, so atomic with the
  debit on a cluster too. The rules are src/dealer/protection.ts's; the memory store's twin is
  src/dealer/memory/protection.ts. Fields:
    p:l:<kind>   a limit (stake_week, stake_day, deposit_week): <amount>|<pending amount>|<effective at>,
                 '' for none; the pending amount applies from its time on (no timer)
    p:s, p:d     the stake and deposit windows: <week total>|<day total>|<oldest hour counted in
                 the week>|<oldest in the day>|<newest hour> (hours are ⌊ms / 3600000⌋)
    p:s:<hour>, p:d:<hour>  a bucket: <cents>|<next bucket's hour> ('' for the newest)
    p:x          the self-exclusion's end (ms)
    p:b          the operator's block: <reason>|<until> ('' until lifted)
    p:r          the reality check's session: <started at>|<last purchase>|<last check>
  A bucket counts until its hour's end plus the window (168 or 24 hours): never freed early.
  The buckets form a list from the oldest, each passed once by each total's start: O(1)
  amortized per stake.
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
  local w = {week = 0, day = 0}
  if text then
    local week, day, head, dayHead, tail = string.match(text, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)$')
    w.week, w.day, w.head, w.dayHead, w.tail = tonumber(week), tonumber(day), tonumber(head), tonumber(dayHead), tonumber(tail)
  end
  return w
end

local function hourText(hour) return hour and int(hour) or '' end

local function windowText(w)
  return int(w.week) .. '|' .. int(w.day) .. '|' .. hourText(w.head) .. '|' .. hourText(w.dayHead) .. '|' .. hourText(w.tail)
end

local function bucket(wallet, prefix, hour)
  local cents, nextHour = string.match(redis.call('HGET', wallet, prefix .. int(hour)), '^([^|]*)|(.*)$')
  return tonumber(cents), tonumber(nextHour)
end

-- Drops from the totals what left the day and the week at hour `nowHour` (the week's buckets
-- go); true when something left (the window's field is then to be written).
local function advanceWindow(wallet, prefix, w, nowHour)
  local before = w.dayHead
  while w.dayHead and w.dayHead < nowHour - DAY_HOURS do
    local cents, nextHour = bucket(wallet, prefix, w.dayHead)
    w.day, w.dayHead = w.day - cents, nextHour
  end
  while w.head and w.head < nowHour - WEEK_HOURS do
    local cents, nextHour = bucket(wallet, prefix, w.head)
    redis.call('HDEL', wallet, prefix .. int(w.head))
    w.week, w.head, before = w.week - cents, nextHour, -1
  end
  if not w.head then w.tail = nil end
  return before ~= w.dayHead
end

-- Counts `cents` at `hour`, or in the newest bucket when a clock behind gives an earlier hour.
local function addToWindow(wallet, prefix, w, hour, cents)
  if w.tail and hour <= w.tail then
    local old = bucket(wallet, prefix, w.tail)
    redis.call('HSET', wallet, prefix .. int(w.tail), int(old + cents) .. '|')
    w.dayHead = w.dayHead or w.tail
  else
    if w.tail then
      local old = bucket(wallet, prefix, w.tail)
      redis.call('HSET', wallet, prefix .. int(w.tail), int(old) .. '|' .. int(hour))
    else
      w.head = hour
    end
    redis.call('HSET', wallet, prefix .. int(hour), int(cents) .. '|')
    w.tail = hour
    w.dayHead = w.dayHead or hour
  end
  w.week, w.day = w.week + cents, w.day + cents
end

-- Takes `cents` back from bucket `hour` (a hold refunded), if still counted and holding them.
local function takeFromWindow(wallet, prefix, w, hour, cents)
  if not w.head or hour < w.head or hour > w.tail then return end
  local field = prefix .. int(hour)
  local text = redis.call('HGET', wallet, field)
  if not text then return end
  local old, nextHour = string.match(text, '^([^|]*)|(.*)$')
  if tonumber(old) < cents then return end
  redis.call('HSET', wallet, field, int(tonumber(old) - cents) .. '|' .. nextHour)
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

local PURCHASE_FIELDS = {'p:b', 'p:x', 'p:l:stake_week', 'p:l:stake_day', 'p:s', 'p:r'}

--[[
  The purchase step's protection checks, before the balance's: block, self-exclusion, then
  with `settings` ('<reality check ms>|<session idle ms>', '' for none) a weekly limit set and
  the reality check, then the week's and the day's stakes. Returns the refusal's reply, or nil
  and what `countStake` needs:
    {-13, until or -1}                     blocked by the operator
    {-14, until}                           self-excluded
    {-15}                                  no weekly stake limit set
    {-16, played ms, session start}        the reality check is due
    {-17, 1 (week) or 2 (day), left, next free at or -1}  the stake would pass that limit
]]
local function stakeRefusal(wallet, stake, now, settings)
  local f = redis.call('HMGET', wallet, unpack(PURCHASE_FIELDS))
  if f[1] then
    local blockedUntil = string.match(f[1], '|(.*)$')
    if blockedUntil == '' or tonumber(blockedUntil) > now then return {-13, tonumber(blockedUntil) or -1} end
  end
  if f[2] and tonumber(f[2]) > now then return {-14, tonumber(f[2])} end
  local week = effectiveLimit(f[3], now)
  local realityMs, idleMs = string.match(settings, '^(%d+)|(%d+)$')
  local session
  if realityMs then
    realityMs, idleMs = tonumber(realityMs), tonumber(idleMs)
    if not week then return {-15} end
    session = openSession(f[6], now, idleMs)
    if session and now - session.checked >= realityMs then return {-16, now - session.started, session.started} end
  end
  local w = readWindow(f[5])
  local hour = math.floor(now / HOUR)
  if advanceWindow(wallet, 'p:s:', w, hour) then redis.call('HSET', wallet, 'p:s', windowText(w)) end
  if week and w.week + stake > week then
    return {-17, 1, math.max(0, week - w.week), w.head and (w.head + 1 + WEEK_HOURS) * HOUR or -1}
  end
  local day = effectiveLimit(f[4], now)
  if day and w.day + stake > day then
    return {-17, 2, math.max(0, day - w.day), w.dayHead and (w.dayHead + 1 + DAY_HOURS) * HOUR or -1}
  end
  return nil, {window = w, hour = hour, session = session, settings = realityMs and true}
end

-- Counts a sold (or held) stake and keeps the session; `checked` is what stakeRefusal gave.
local function countStake(wallet, checked, stake, now)
  addToWindow(wallet, 'p:s:', checked.window, checked.hour, stake)
  redis.call('HSET', wallet, 'p:s', windowText(checked.window))
  if checked.settings then
    local s = checked.session
    local started, last, at = now, now, now
    if s then started, last, at = s.started, math.max(s.last, now), s.checked end
    redis.call('HSET', wallet, 'p:r', int(started) .. '|' .. int(last) .. '|' .. int(at))
  end
end

--[[
  The weekly deposit limit (deposit-3.lua): nil when the deposit passes, counted then; else
    {-18, left, next free at or -1}
]]
local function depositRefusal(wallet, amount, now)
  local f = redis.call('HMGET', wallet, 'p:l:deposit_week', 'p:d')
  local w = readWindow(f[2])
  local hour = math.floor(now / HOUR)
  advanceWindow(wallet, 'p:d:', w, hour)
  local limit = effectiveLimit(f[1], now)
  if limit and w.week + amount > limit then
    if f[2] then redis.call('HSET', wallet, 'p:d', windowText(w)) end
    return {-18, math.max(0, limit - w.week), w.head and (w.head + 1 + WEEK_HOURS) * HOUR or -1}
  end
  addToWindow(wallet, 'p:d:', w, hour, amount)
  redis.call('HSET', wallet, 'p:d', windowText(w))
  return nil
end
