import type { BucketDetails, DebugDetails, Limit, Quota, QuotaDetails } from "@/lib/limiter";
import { formatPeriod } from "@/lib/limiter";
import type { Operation } from "@/lib/vocabulary";

/** Words are a limit's name and its RateLimit-Policy item, for one operation. */
interface Words {
  name: string;
  item: string;
}

// Limits are immutable and live as long as the policy snapshot: their words are written once,
// per class (one map per class, made on its first limit).
const written = new Map<Operation, WeakMap<Limit, Words>>();

function wordsOf(operation: Operation, limit: Limit): Words {
  let byLimit = written.get(operation);
  if (!byLimit) {
    byLimit = new WeakMap();
    written.set(operation, byLimit);
  }
  let words = byLimit.get(limit);
  if (!words) {
    const name = `${operation}-${limit.count}-per-${formatPeriod(limit.periodMs)}`;
    const item = `"${name}";q=${limit.count};w=${Math.max(1, seconds(limit.periodMs))}`;
    words = { name, item };
    byLimit.set(limit, words);
  }
  return words;
}

// A quota's words name its count (grants included) and its period, and give its window as the
// current period's length: kept per class and quota (immutable, shared by a snapshot), their
// window per period start (a month's length changes with the month, a day's with DST).
interface QuotaWords {
  name: string;
  periodStartMs: number;
  item: string;
}
const quotaWritten = new Map<Operation, WeakMap<Quota, QuotaWords>>();

function quotaWordsOf(operation: Operation, q: QuotaDetails): QuotaWords {
  let byQuota = quotaWritten.get(operation);
  if (!byQuota) {
    byQuota = new WeakMap();
    quotaWritten.set(operation, byQuota);
  }
  let words = byQuota.get(q.quota);
  if (!words || words.periodStartMs !== q.periodStartMs) {
    const name = words?.name ?? `${operation}-${q.quota.count}-per-${q.quota.period}`;
    const window = Math.max(1, seconds(q.periodEndMs - q.periodStartMs));
    words = {
      name,
      periodStartMs: q.periodStartMs,
      item: `"${name}";q=${q.quota.count};w=${window}`,
    };
    byQuota.set(q.quota, words);
  }
  return words;
}

/** policyName names a limit in the RateLimit fields, e.g. "read-10-per-1s". */
export function policyName(operation: Operation, limit: Limit): string {
  return wordsOf(operation, limit).name;
}

/**
 * quotaPolicyName names a quota in the RateLimit fields: "<class>-<count>-per-<period>", e.g.
 * "read-100000-per-month" (the count as decided: grants included).
 */
export function quotaPolicyName(operation: Operation, q: QuotaDetails): string {
  return quotaWordsOf(operation, q).name;
}

function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}

/** refillMs is how long (ms) a bucket takes to be full again from its remaining tokens. */
export function refillMs(bucket: BucketDetails): number {
  const { count, periodMs } = bucket.limit;
  return ((count - bucket.tokensRemaining) * periodMs) / count;
}

/**
 * bindingQuota is the quota that decides over the buckets, if any: when denied, the refusing
 * quota with the longest retry-after, if it waits longer than every bucket; when allowed, the
 * quota with the fewest tokens left, if fewer than every bucket's.
 */
export function bindingQuota(details: DebugDetails): QuotaDetails | undefined {
  const quotas = details.quotas;
  if (!quotas || quotas.length === 0) return undefined;
  let binding: QuotaDetails | undefined;
  for (const q of quotas) {
    if (!details.allowed && q.allowed) continue;
    if (!binding) binding = q;
    else if (!details.allowed && q.retryAfterMs > binding.retryAfterMs) binding = q;
    else if (details.allowed && q.remaining < binding.remaining) binding = q;
  }
  if (!binding) return undefined;
  const bucket = bindingBucket(details);
  if (!bucket) return binding;
  if (!details.allowed)
    return bucket.allowed || binding.retryAfterMs > bucket.retryAfterMs ? binding : undefined;
  return binding.remaining < bucket.tokensRemaining ? binding : undefined;
}

/** bindingBucket is the bucket that decided: most retry-after when denied, fewest tokens left when allowed. */
export function bindingBucket(details: DebugDetails): BucketDetails | undefined {
  let binding: BucketDetails | undefined;
  for (const b of details.buckets) {
    if (!binding) binding = b;
    else if (!details.allowed && b.retryAfterMs > binding.retryAfterMs) binding = b;
    else if (details.allowed && b.tokensRemaining < binding.tokensRemaining) binding = b;
  }
  return binding;
}

/**
 * rateLimitHeaders returns the IETF fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy` lists every limit with its quota `q` and window `w` (seconds), and
 * `RateLimit` reports the binding limit's remaining quota `r` and seconds `t` until it resets
 * (or, with nothing left, until the next token), plus `Retry-After` on a denial.
 */
export function rateLimitHeaders(
  operation: Operation,
  details: DebugDetails,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const quotas = details.quotas;
  if (details.buckets.length === 0 && !quotas?.length) return headers;
  let policy = "";
  for (const bucket of details.buckets) {
    policy += `${policy ? ", " : ""}${wordsOf(operation, bucket.limit).item}`;
  }
  if (quotas) {
    for (const q of quotas) policy += `${policy ? ", " : ""}${quotaWordsOf(operation, q).item}`;
  }
  headers["RateLimit-Policy"] = policy;
  const quota = bindingQuota(details);
  if (quota) {
    // A quota resets at its period's end, whatever is left.
    const remaining = quota.remaining;
    headers.RateLimit = `"${quotaWordsOf(operation, quota).name}";r=${remaining};t=${seconds(quota.resetInMs)}`;
  } else {
    const binding = bindingBucket(details) as BucketDetails;
    const remaining = Math.max(0, binding.tokensRemaining);
    const untilMs =
      !details.allowed && Number.isFinite(binding.retryAfterMs)
        ? binding.retryAfterMs
        : remaining > 0
          ? refillMs(binding)
          : binding.limit.periodMs / binding.limit.count;
    headers.RateLimit = `"${policyName(operation, binding.limit)}";r=${remaining};t=${seconds(untilMs)}`;
  }
  if (!details.allowed && Number.isFinite(details.retryAfterMs)) {
    // Whole seconds, rounded up: a client that waits this long is never early.
    headers["Retry-After"] = String(Math.max(1, seconds(details.retryAfterMs)));
  }
  return headers;
}
