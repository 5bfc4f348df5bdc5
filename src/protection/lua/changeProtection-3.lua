--[[
  Changes a player's protection (fields of the wallet hash: includes/protection) and journals
  the change, in one step, so that two changes at once (two processes, a player and the
  operator) never lose one. The rules are src/protection/rules.ts's (`changedLimit`): a first
  limit or a lowering applies at once and cancels a pending raise; a raise or a removal waits
  the delay, the same raise asked again keeps its date; a limit asked again as it stands (the
  same amount, the same pending raise) changes nothing and journals nothing. A self-exclusion
  only extends: an end no later than the one set changes nothing. A reality check is
  acknowledged only when due (the session open, its interval run since it began or was last
  checked): before, nothing changes and nothing is journaled, so many at once journal one.

  Input:
    KEYS[1] the player's wallet (hash)
    KEYS[2] the player's protection journal (list of JSON `ProtectionChange`, newest first,
            kept to its 1,000 newest)
    KEYS[3] the regulator's archive's money stream: each journal line added is also an entry
            (fields p: the player, c: the line; docs/archive.md), in this step

    ARGV[1] what: limits | operator_limits | exclusion | block | unblock | reality_check_ack | reality_check_interval | refusal
    ARGV[2] now (ms since the epoch)
    ARGV[3] the player's id (for the archive entry)
    limits:     ARGV[4] the raise delay (ms), then pairs: kind, amount ('' for none)
    operator_limits: ARGV[4] the operator's weekly stake limit, ARGV[5] its daily one ('' for
                none): applied at once (p:o:stake_week, p:o:stake_day), each change journaled
                as the operator's
    exclusion:  ARGV[4] its end (ms)
    reality_check_ack: ARGV[4] the reality check's interval (ms), ARGV[5] the session's idle time (ms);
                the player's interval (p:ri) applies when shorter
    reality_check_interval: ARGV[4] the player's interval (ms, '' for the server's): p:ri, a
                change journaled (the same again changes nothing)
    block:      ARGV[4] reason, ARGV[5] until (ms, '' until lifted)
    refusal:    ARGV[4] the purchase's refusal code (journal only: the wallet is untouched;
                the same code as the newest line counts in that line: count, firstAt, and
                adds no archive entry: the table's `buy` record has each refusal)

  Output: 1
]]
--- @include "../../redis-scripts/lua/int"
--- @include "includes/protection"

local what, now = ARGV[1], tonumber(ARGV[2])
-- Every change ends the allowance that the purchases took within (includes/protection).
if what ~= 'refusal' then dropAllowance(KEYS[1]) end
local JOURNAL_KEEP = 1000

local function journal(change)
  change.at = now
  change.by = change.by or 'player'
  change.what = change.what or what
  local line = cjson.encode(change)
  redis.call('LPUSH', KEYS[2], line)
  redis.call('LTRIM', KEYS[2], 0, JOURNAL_KEEP - 1)
  redis.call('XADD', KEYS[3], '*', 'p', ARGV[3], 'c', line)
end

if what == 'limits' then
  local delay = tonumber(ARGV[4])
  for i = 5, #ARGV, 2 do
    local kind, asked = ARGV[i], tonumber(ARGV[i + 1])
    local field = 'p:l:' .. kind
    local stored = redis.call('HGET', KEYS[1], field) or '||'
    local amount, pending, at = string.match(stored, '^([^|]*)|([^|]*)|([^|]*)$')
    if at ~= '' and now >= tonumber(at) then amount, pending, at = pending, '', '' end
    local current = tonumber(amount)
    local text, effectiveAt
    if not current or (asked and asked <= current) then
      text, effectiveAt = (asked and int(asked) or '') .. '||', now
    elseif at ~= '' and tonumber(pending) == asked then
      text, effectiveAt = amount .. '|' .. pending .. '|' .. at, tonumber(at)
    else
      effectiveAt = now + delay
      text = amount .. '|' .. (asked and int(asked) or '') .. '|' .. int(effectiveAt)
    end
    if text ~= stored then
      redis.call('HSET', KEYS[1], field, text)
      journal({what = 'limit', kind = kind, amount = asked or cjson.null, effectiveAt = effectiveAt})
    end
  end
elseif what == 'operator_limits' then
  for i, kind in ipairs({'stake_week', 'stake_day'}) do
    local field, asked = 'p:o:' .. kind, ARGV[3 + i]
    if asked ~= (redis.call('HGET', KEYS[1], field) or '') then
      if asked == '' then redis.call('HDEL', KEYS[1], field) else redis.call('HSET', KEYS[1], field, asked) end
      journal({by = 'operator', what = 'limit', kind = kind, amount = tonumber(asked) or cjson.null, effectiveAt = now})
    end
  end
elseif what == 'exclusion' then
  local ends = tonumber(ARGV[4])
  if ends > tonumber(redis.call('HGET', KEYS[1], 'p:x') or '0') then
    redis.call('HSET', KEYS[1], 'p:x', int(ends))
    journal({['until'] = ends})
  end
elseif what == 'block' then
  redis.call('HSET', KEYS[1], 'p:b', ARGV[4] .. '|' .. ARGV[5])
  journal({by = 'operator', reason = ARGV[4], ['until'] = tonumber(ARGV[5])})
elseif what == 'unblock' then
  redis.call('HDEL', KEYS[1], 'p:b')
  journal({by = 'operator'})
elseif what == 'reality_check_ack' then
  -- The session's last purchase (the allowance's folded in above) and last check.
  local f = redis.call('HMGET', KEYS[1], 'p:rl', 'p:rc', 'p:ri')
  local lastAt, checkedAt = tonumber(f[1]), tonumber(f[2])
  local interval = math.min(tonumber(ARGV[4]), tonumber(f[3]) or math.huge)
  if lastAt and checkedAt and now - lastAt < tonumber(ARGV[5]) and now - checkedAt >= interval then
    redis.call('HSET', KEYS[1], 'p:rc', int(now))
    journal({})
  end
elseif what == 'reality_check_interval' then
  local asked = tonumber(ARGV[4])
  if asked ~= tonumber(redis.call('HGET', KEYS[1], 'p:ri')) then
    if asked then redis.call('HSET', KEYS[1], 'p:ri', int(asked)) else redis.call('HDEL', KEYS[1], 'p:ri') end
    journal({amount = asked or cjson.null})
  end
elseif what == 'refusal' then
  local newest = redis.call('LINDEX', KEYS[2], 0)
  local last = newest and cjson.decode(newest)
  if last and last.what == 'refusal' and last.code == ARGV[4] then
    last.at = math.max(last.at, now)
    last.count = (last.count or 1) + 1
    redis.call('LSET', KEYS[2], 0, cjson.encode(last))
  else
    journal({code = ARGV[4], count = 1, firstAt = now})
  end
end
return 1
