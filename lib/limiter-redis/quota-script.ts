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
