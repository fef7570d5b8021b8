// The quota parts of the Redis scripts: the fragments DECIDE decides a quota with (see script.ts)
// and the script that restores a saved quota state.

/**
 * QUOTA_SHIFT is added to a decision's count in DECIDE's argument once per quota (so a decision
 * holds fewer than this many buckets, and as many quotas).
 */
export const QUOTA_SHIFT = 256;

/**
 * QUOTA_DOUBLES is how many doubles DECIDE's argument holds per quota: the key's index, the
 * count, the period's start and end, the tokens wanted and the seed.
 */
export const QUOTA_DOUBLES = 6;

/** QUOTA_GRACE_MS is how long past its period's end a quota's key is kept: one day. */
export const QUOTA_GRACE_MS = 86_400_000;

/**
 * QUOTA_READ reads the quota at `key` for the period `[start, stop)` the instance computed:
 * `st` the period it counts in and `used` the tokens used then. A stored start older than
 * `start` is a past period (0 used); a newer one is a period the instance has not reached yet
 * (its clock lags at a boundary): the stored period is used. `seed` is what the instance last
 * saw of the key this period (0 if nothing): an absent key is `seed` used, and a key of the
 * period at fewer counts the seed (a count only grows within a period, so that is a key Redis
 * lost and someone wrote again lower: a restore from the rollups, which lag): a key Redis lost
 * (FLUSHALL, an eviction, a restart without persistence) does not start again from 0 or from a
 * lagging count. A key that is not a quota (another type, or unreadable fields) makes the
 * decision fail (`ok` = -1).
 */
export const QUOTA_READ = `
    local got = redis.pcall('HMGET', key, 'start', 'used')
    local st, used, ss = start, 0, nil
    if got.err then
      ok = -1
    elseif not got[1] then
      used = seed
    else
      ss = tonumber(got[1])
      local su = tonumber(got[2])
      if not (ss and su) then
        ok, ss = -1, nil
      elseif ss > start then
        st, used = ss, su
      elseif ss == start then
        used = su
        if seed > used then used = seed end
      end
    end`;

/**
 * QUOTA_TAKE adds `need` tokens to the quota at `key`. A key written for a new period (absent,
 * or of a past one) expires a day after the period's end, on the server's clock only; one of
 * the current or a later period keeps its expiry.
 */
export const QUOTA_TAKE = `
        redis.call('HSET', key, 'start', string.format('%d', st), 'used', string.format('%d', used + need))
        if server and st == start and ss ~= start then
          redis.call('PEXPIREAT', key, string.format('%d', stop + ${QUOTA_GRACE_MS}))
        end`;

/**
 * RESTORE_QUOTA merges a saved quota state into the hash at KEYS[1] (fields `start` and
 * `used`, whole numbers): ARGV[1] the state's period start (ms), ARGV[2] its used count,
 * ARGV[3] when the key expires (ms since the epoch; "" for none). Redis holding no state, or
 * an older period's, takes the saved one whole; holding the same period, it keeps the larger
 * used count; holding a later period, it is left alone. It returns 1 when it wrote, else 0.
 */
export const RESTORE_QUOTA = `
local stored = redis.call('HMGET', KEYS[1], 'start', 'used')
local ss, su = tonumber(stored[1]), tonumber(stored[2])
local start, used = tonumber(ARGV[1]), tonumber(ARGV[2])
if ss == nil or ss < start then
  redis.call('HSET', KEYS[1], 'start', ARGV[1], 'used', ARGV[2])
  if ARGV[3] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[3]) end
  return 1
end
if ss == start and used > (su or 0) then
  redis.call('HSET', KEYS[1], 'used', ARGV[2])
  return 1
end
return 0
`;
