// The Lua scripts of the fleet's usage counts in Redis. Every key sits under one hash tag,
// "<prefix>:{usage}", so the scripts also run on a Redis Cluster (one slot).

/**
 * PUSH adds one chunk of an instance's counts, once: it sets the chunk's marker (KEYS[1]) only if
 * absent, and only then increments the fields, so a chunk sent again after an unknown outcome
 * (a timeout) adds nothing the second time. KEYS: the marker, the set of open minutes, then one
 * hash per minute. ARGV: the marker's lifetime (ms), the minute hashes' lifetime (ms), the number
 * of minutes k, their k starts (ms), then triples of (minute index, field, increment). Returns 1
 * when applied, 0 when the marker said it already was.
 */
export const PUSH = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 0 end
local k = tonumber(ARGV[3])
local j = 4 + k
while j <= #ARGV do
  redis.call('HINCRBY', KEYS[2 + tonumber(ARGV[j])], ARGV[j + 1], ARGV[j + 2])
  j = j + 3
end
for i = 1, k do
  redis.call('ZADD', KEYS[2], ARGV[3 + i], ARGV[3 + i])
  redis.call('PEXPIRE', KEYS[2 + i], ARGV[2])
end
return 1
`;

/**
 * CLAIM takes closed minutes for one claimer: each open minute that started at or before
 * ARGV[1] (up to ARGV[2] of them) leaves the open set, and its hash is renamed to a claim key
 * "<base>:claim:<start>:<claim id>" entered in the claims set with the lease time ARGV[3]. A
 * count pushed later for that minute starts a new hash, claimed later: nothing is lost, nothing
 * is read twice. KEYS: the open minutes, the claims. ARGV: the latest start, the most minutes, the
 * lease time (ms), the claim id, the key base. Returns the claim keys.
 */
export const CLAIM = `
local minutes = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local claimed = {}
for _, start in ipairs(minutes) do
  redis.call('ZREM', KEYS[1], start)
  local source = ARGV[5] .. ':m:' .. start
  if redis.call('EXISTS', source) == 1 then
    local claim = ARGV[5] .. ':claim:' .. start .. ':' .. ARGV[4]
    redis.call('RENAME', source, claim)
    redis.call('ZADD', KEYS[2], ARGV[3], claim)
    claimed[#claimed + 1] = claim
  end
end
return claimed
`;

/**
 * RECLAIM takes over the claims whose lease expired (their claimer died, or is far behind): each
 * claim leased at or before ARGV[1] (up to ARGV[2]) gets the new lease time ARGV[3], so exactly
 * one claimer takes it over. KEYS: the claims. Returns the claim keys taken over.
 */
export const RECLAIM = `
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, claim in ipairs(stale) do redis.call('ZADD', KEYS[1], ARGV[3], claim) end
return stale
`;

/**
 * LIVE_SPAN keeps, in one second's hash of the live view (KEYS[1]), when the fleet's first and
 * last allowed decision of each customer and operation came in that second: fields "<who>:f"
 * (the least offset pushed) and "<who>:l" (the greatest). ARGV: triples of (who, first offset,
 * last offset), offsets in ms into the second. Instances push their seconds apart, so the least
 * and the greatest must be kept in Redis, not summed.
 */
export const LIVE_SPAN = `
local j = 1
while j <= #ARGV do
  local f = ARGV[j] .. ':f'
  local l = ARGV[j] .. ':l'
  local first = tonumber(ARGV[j + 1])
  local last = tonumber(ARGV[j + 2])
  local seen = tonumber(redis.call('HGET', KEYS[1], f))
  if not seen or first < seen then redis.call('HSET', KEYS[1], f, first) end
  seen = tonumber(redis.call('HGET', KEYS[1], l))
  if not seen or last > seen then redis.call('HSET', KEYS[1], l, last) end
  j = j + 3
end
return 0
`;
