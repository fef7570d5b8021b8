import { createHash } from "node:crypto";

/**
 * DECIDE is the one server-side script of a decision. It reads every bucket of the decision,
 * checks the first `enforced` of them for `n` tokens and, only if all pass (and `take` is set),
 * writes them all: the all-or-nothing rule holds because Redis runs a script atomically.
 *
 * The buckets after the first `enforced` are a shadow decision (dry-run limits): evaluated only
 * when the enforced decision allows, as one all-or-nothing decision of their own whose tokens
 * are taken only if every shadow bucket has them. The shadow never changes the enforced answer,
 * and it costs no round trip of its own.
 *
 * KEYS: one per bucket, enforced first. ARGV: take (1 or 0), n, the execution time in whole
 * milliseconds (empty: the Redis server's clock, so instances with skewed clocks agree), the
 * number of enforced buckets, then per bucket its limit's scale, token units and period in
 * milliseconds (see `Limit`).
 *
 * A bucket is one time value, the instant up to which its tokens are spent, stored exactly as
 * "<ms>:<units>" (whole milliseconds, plus units of 1/scale ms below them). On the server's clock
 * the key expires when the bucket is full again: a full bucket is an absent one.
 *
 * The reply is [allowed (1 or 0), execution time, then per bucket the units available before
 * this decision, at most one period's, then the shadow's answer: 1 allowed, 0 refused, -1 not
 * evaluated (no shadow buckets, or the enforced decision refused)]. Every number is an integer
 * below 2^53, so the doubles Lua computes with are exact.
 */
export const DECIDE = `
local take = ARGV[1] == '1'
local n = tonumber(ARGV[2])
local now
local serverTime = ARGV[3] == ''
if serverTime then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
else
  now = tonumber(ARGV[3])
end
local enforced = tonumber(ARGV[4])
local reply = {1, now}
local shadow = -1
if #KEYS > enforced then shadow = 1 end
for i = 1, #KEYS do
  local j = 5 + (i - 1) * 3
  local scale = tonumber(ARGV[j])
  local tokenUnits = tonumber(ARGV[j + 1])
  local periodMs = tonumber(ARGV[j + 2])
  local available = periodMs * scale
  local value = redis.call('GET', KEYS[i])
  if value then
    local sep = string.find(value, ':', 1, true)
    local elapsedMs = now - tonumber(string.sub(value, 1, sep - 1))
    if elapsedMs <= periodMs then
      available = elapsedMs * scale - tonumber(string.sub(value, sep + 1))
    end
  end
  reply[i + 2] = available
  if n > 0 and available < n * tokenUnits then
    if i <= enforced then reply[1] = 0 else shadow = 0 end
  end
end
if reply[1] == 0 then shadow = -1 end
local function spend(first, last)
  for i = first, last do
    local j = 5 + (i - 1) * 3
    local scale = tonumber(ARGV[j])
    local periodMs = tonumber(ARGV[j + 2])
    local left = reply[i + 2] - n * tonumber(ARGV[j + 1])
    -- The bucket's time is now minus 'left' units: 'back' whole ms before now, plus 'rest' units.
    local back = math.ceil(left / scale)
    if back * scale < left then
      back = back + 1
    elseif back > 0 and (back - 1) * scale >= left then
      back = back - 1
    end
    local rest = back * scale - left
    local ttl = periodMs - back
    if rest > 0 then ttl = ttl + 1 end
    local value = string.format('%.0f:%.0f', now - back, rest)
    if serverTime then
      redis.call('SET', KEYS[i], value, 'PX', ttl)
    else
      -- An injected clock (tests) does not follow the server's: expiring by the server's clock
      -- could drop a bucket the injected time still counts as spent.
      redis.call('SET', KEYS[i], value)
    end
  end
end
if take and n > 0 and reply[1] == 1 then
  spend(1, enforced)
  if shadow == 1 then spend(enforced + 1, #KEYS) end
end
reply[#KEYS + 3] = shadow
return reply
`;

/** DECIDE_SHA is the script's SHA-1, for EVALSHA. */
export const DECIDE_SHA = createHash("sha1").update(DECIDE).digest("hex");
