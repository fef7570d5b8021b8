import { createHash } from "node:crypto";
import { QUOTA_DOUBLES, QUOTA_READ, QUOTA_SHIFT, QUOTA_TAKE } from "./quota-script";

/*
 * The decision script, assembled from the fragments below so that each rule is written once:
 * READ (a bucket from its key), CLOCK (the server's time), AVAILABLE (the units a bucket holds)
 * and TAKE (consume and write back). The script has a fast path for the most common call (one
 * decision over one bucket) and a general path for a batch of decisions, each over any number
 * of buckets; both run the same fragments. Everything it reads and writes is packed binary
 * (big-endian doubles, via Redis's bundled `struct` library), so neither side parses or prints
 * a decimal number on the hot path: in Redis 7.0 a decimal conversion (strtod, or printf's
 * "%.17g" for a Lua number passed to a command) costs more than a command.
 */

/**
 * READ sets `s, b, u, e` from the value at `key`: s = 0 absent (a full bucket), 1 stored, 2
 * unreadable (another type, or not a bucket), 3 stored by an earlier version as the text
 * "<ms>:<units>". A stored bucket is 24 bytes: its base `b` (ms), the units `u` spent since
 * the base (the bucket's time is b * scale + u units) and the key's expiry `e` (ms, 0 with an
 * injected clock). An earlier version's text is 24 characters long only when its units need
 * ten digits, so only a scale of 10^9 or more needs the first byte checked (a packed double
 * never starts with a digit or "-").
 */
const READ = `
    local v = redis.pcall('GET', key)
    local s, b, u, e = 0, 0, 0, 0
    if v then
      local packed = #v == 24
      if packed and scale >= 1e9 then
        local c = string.byte(v)
        packed = c ~= 45 and (c < 48 or c > 57)
      end
      if packed then
        s = 1
        b, u, e = unpackd('>ddd', v)
      else
        s = 2
        if type(v) == 'string' then
          local sep = string.find(v, ':', 1, true)
          local ms = sep and tonumber(string.sub(v, 1, sep - 1))
          local rest = sep and tonumber(string.sub(v, sep + 1))
          if ms and rest then s, b, u = 3, ms, rest end
        end
      end
    end`;

/** timeInto reads the server's TIME, in whole ms, into the variable `name`. */
const timeInto = (name: string) => `
        local t = redis.call('TIME')
        local us = t[2] + 0
        ${name} = t[1] * 1000 + (us - us % 1000) / 1000`;

/**
 * CLOCK reads the server's time in whole ms into `now`: a stored bucket's expiry minus its
 * remaining time to live (one integer reply), else TIME (two strings to convert).
 */
const CLOCK = `
      if s == 1 then
        local ttl = redis.call('PTTL', key)
        if ttl > 0 then now = e - ttl end
      end
      if now ~= now then${timeInto("now")}
      end`;

/**
 * EXPIRED is DECIDE's answer for a batch that reached Redis after its deadline: nothing was read
 * into a decision and nothing was taken (a batch shares one deadline, so it is the whole batch's).
 */
export const EXPIRED = -3;

/**
 * LATE returns EXPIRED when the server's time `clock` (whole ms) is past the batch's deadline:
 * before anything is written. With an injected clock the reply ends with the server's time.
 */
const LATE = (clock: string) => `
    if ${clock} > deadline then
      if server then return packd('>dd', now, ${EXPIRED}) end
      return packd('>ddd', now, ${EXPIRED}, ${clock})
    end`;

/**
 * AVAILABLE sets `pu` (a period in units) and `avail`, the units the bucket holds at `now`, at
 * most a period's; an unreadable bucket makes the decision fail (`ok` = -1). The products stay
 * below 2^53 while the bucket is within a period of full; beyond that they only need to exceed
 * `pu`, which rounding preserves.
 */
const AVAILABLE = `
    local pu = periodMs * scale
    local avail = pu
    if s == 2 then
      ok, avail = -1, 0
    elseif s ~= 0 then
      avail = (now - b - periodMs) * scale + (pu - u)
      if avail > pu then avail = pu end
    end`;

/**
 * TAKE consumes `need` units from a bucket holding `avail` and writes it back. A full bucket
 * restarts from a base one period ago; a base older than a period moves up to it (keeping
 * b * scale + u), so `u` stays within a period's units. The key expires when the bucket is
 * full again: a new key exactly then; a key written again keeps its expiry while that still
 * covers the bucket (SETRANGE rewrites the value in place and leaves the expiry), and
 * otherwise is given one period more, so a busy key's expiry moves about once a period rather
 * than on every decision. An injected clock does not follow the server's: no expiry then.
 */
const TAKE = `
        if avail >= pu then
          b, u = now - periodMs, need
        elseif now - b > periodMs then
          local base = now - periodMs
          u = u + need - (base - b) * scale
          b = base
        else
          u = u + need
        end
        if not server then
          redis.call('SET', key, packd('>ddd', b, u, 0))
        elseif s == 1 and (e - b - periodMs) * scale >= u then
          redis.call('SETRANGE', key, '0', packd('>ddd', b, u, e))
        else
          local c = math.ceil(u / scale)
          if c * scale < u then c = c + 1 elseif c > 0 and (c - 1) * scale >= u then c = c - 1 end
          e = b + periodMs + c
          if s ~= 0 then e = e + periodMs end
          redis.call('SET', key, packd('>ddd', b, u, e), 'PXAT', string.format('%d', e))
        end`;

/**
 * SHADOW is added to a decision's bucket count in DECIDE's argument to mark a shadow decision
 * (a decision never spans this many buckets).
 */
export const SHADOW = 65_536;

/**
 * DECIDE is the one server-side script of the Redis limiter. It runs a batch of decisions in
 * order, each all or nothing over its buckets, at one instant of the server's clock (or of an
 * injected clock); Redis runs a script atomically, so the all-or-nothing rule holds across
 * instances.
 *
 * KEYS: every bucket and quota the batch touches, once. ARGV[1]: packed big-endian doubles: the
 * time in whole ms (NaN: the server's clock), the batch's deadline by the server's clock (ms;
 * Infinity: none), then per decision its count m (the buckets plus QUOTA_SHIFT per quota;
 * negative: peek, consume nothing; plus SHADOW: a shadow decision, see below), per bucket the
 * key's index in KEYS, the limit's scale (units per ms), period in ms, and the units wanted
 * (n tokens' worth; 0 takes nothing), and per quota the key's index, its count, the start and
 * end of the period the instance computed (ms since the epoch), the tokens wanted and the seed
 * (the tokens used the instance remembers for that period, for a key Redis lost). A quota
 * admits when its used tokens plus those wanted are at most its count (see QUOTA_READ).
 *
 * The deadline is read on the server's own clock, whatever clock decides: the one it reads for
 * the decisions (a stored bucket's expiry or TIME) or, with an injected clock, TIME. Once that
 * clock reads a whole ms past the deadline, the script does nothing and answers EXPIRED: a
 * command that waited in a socket while Redis hung, or while the link was cut, takes nothing
 * when it finally runs, however long after the caller stopped waiting.
 *
 * A shadow decision (dry-run limits) is decided only when the decision just before it allowed,
 * as one all-or-nothing decision of its own: it never changes that decision's answer, and it
 * rides in the same run, so it costs no round trip (and has no deadline) of its own.
 *
 * The reply is packed doubles too: the time, then per decision 1 (allowed), 0 (refused), -1
 * (a bucket's or quota's key holds something else: nothing taken) or -2 (a shadow not decided:
 * the decision before it did not allow; its entries then read 0), per bucket the units it held
 * before the decision, at most a period's, and per quota the start of the period it counted in
 * and the tokens used before the decision; or, past the deadline, the time and EXPIRED alone.
 * With an injected clock the reply ends with the server's time (whole ms), which the caller
 * learns its clock's offset from; otherwise the time it starts with is the server's. Every
 * number is an integer below 2^53, so the doubles are exact.
 */
export const DECIDE = `
local unpackd, packd = struct.unpack, struct.pack
local blob = ARGV[1]
-- One decision over one bucket is 7 doubles over one key; no other batch is both (five
-- decisions over no bucket are 7 doubles too, over no key).
if #blob == 56 and #KEYS == 1 then
  local now, deadline, m, i, scale, periodMs, need = unpackd('>ddddddd', blob)
  local server = now ~= now
  local key = KEYS[1]
  local ok, redisNow = 1, 0
${READ}
  if server then
${CLOCK}
${LATE("now")}
  else
${timeInto("redisNow")}
${LATE("redisNow")}
  end
${AVAILABLE}
  if need > 0 and ok == 1 then
    if avail < need then
      ok = 0
    elseif m > 0 then
${TAKE}
    end
  end
  if server then return packd('>ddd', now, ok, avail) end
  return packd('>dddd', now, ok, avail, redisNow)
end
local now, deadline, pos = unpackd('>dd', blob)
local server = now ~= now
local redisNow = 0
if not server then
${timeInto("redisNow")}
${LATE("redisNow")}
end
local reply, n, len, held, last = {0}, 1, #blob, {}, 1
while pos <= len do
  local m
  m, pos = unpackd('>d', blob, pos)
  local shadow = m >= ${SHADOW}
  if shadow then m = m - ${SHADOW} end
  local take = m > 0
  if not take then m = -m end
  local q = math.floor(m / ${QUOTA_SHIFT})
  m = m - q * ${QUOTA_SHIFT}
  local ok, head = 1, n + 1
  if shadow and last ~= 1 then
    ok, pos = -2, pos + 32 * m + ${8 * QUOTA_DOUBLES} * q
    for j = 1, m + 2 * q do reply[head + j] = 0 end
  end
  for j = 1, ok == -2 and 0 or m do
    local i, scale, periodMs, need
    i, scale, periodMs, need, pos = unpackd('>dddd', blob, pos)
    local key = KEYS[i]
${READ}
    if now ~= now then
${CLOCK}
${LATE("now")}
    end
${AVAILABLE}
    if need > 0 and ok == 1 and avail < need then ok = 0 end
    reply[head + j] = avail
    local o = 8 * j
    held[o - 7], held[o - 6], held[o - 5], held[o - 4] = key, scale, periodMs, need
    held[o - 3], held[o - 2], held[o - 1], held[o] = s, b, u, e
  end
  for j = 1, ok == -2 and 0 or q do
    local i, count, start, stop, need, seed
    i, count, start, stop, need, seed, pos = unpackd('>dddddd', blob, pos)
    local key = KEYS[i]
    if now ~= now then
${timeInto("now")}
${LATE("now")}
    end
${QUOTA_READ}
    if need > 0 and ok == 1 and used + need > count then ok = 0 end
    local r, o = head + m + 2 * j, 8 * (m + j)
    reply[r - 1], reply[r] = st, used
    held[o - 7], held[o - 6], held[o - 5], held[o - 4] = key, st, used, need
    held[o - 3], held[o - 2] = start, stop
    held[o - 1] = ss or -1
  end
  reply[head] = ok
  n = head + m + 2 * q
  last = ok
  if ok == 1 and take then
    for j = 1, m do
      local o = 8 * j
      local key, scale, periodMs, need = held[o - 7], held[o - 6], held[o - 5], held[o - 4]
      local s, b, u, e = held[o - 3], held[o - 2], held[o - 1], held[o]
      if need > 0 then
        local pu, avail = periodMs * scale, reply[head + j]
${TAKE}
      end
    end
    for j = 1, q do
      local o = 8 * (m + j)
      local key, st, used, need = held[o - 7], held[o - 6], held[o - 5], held[o - 4]
      local start, stop, ss = held[o - 3], held[o - 2], held[o - 1]
      if need > 0 then
${QUOTA_TAKE}
      end
    end
  end
end
-- A batch whose decisions hold no bucket wrote nothing: it needs the time, not the deadline.
if now ~= now then
  local s, e, key = 0, 0, nil
${CLOCK}
end
reply[1] = now
if not server then
  n = n + 1
  reply[n] = redisNow
end
return packd('>' .. string.rep('d', n), unpack(reply))
`;

/** DECIDE_SHA is the script's SHA-1, for EVALSHA. */
export const DECIDE_SHA = createHash("sha1").update(DECIDE).digest("hex");
