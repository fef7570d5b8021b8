import fc from "fast-check";
import { type AnyLimit, type Limit, type LimitFunc, limit, type Quota } from "@/lib/limiter";

/**
 * The behaviour cases of the limiter core, written once and run against every implementation
 * (in memory and Redis) by shared-cases.test.ts. Inputs are strings; a case's limiters key them
 * by the input itself unless the case says otherwise.
 */

/** LimiterSpec describes one limiter of a case. */
export interface LimiterSpec {
  /** key maps an input to its key (the input itself by default). */
  key?: (input: string) => string;
  limits: (AnyLimit | LimitFunc<string>)[];
}

export type BoolMethod = "allow" | "allowN" | "peek" | "peekN";
export type DetailsMethod =
  | "allowWithDetails"
  | "allowNWithDetails"
  | "peekWithDetails"
  | "peekNWithDetails"
  | "waitN";
export type DebugMethod = "allowWithDebug" | "allowNWithDebug" | "peekWithDebug" | "peekNWithDebug";
export type NMethod =
  | "allowN"
  | "allowNWithDetails"
  | "allowNWithDebug"
  | "peekN"
  | "peekNWithDetails"
  | "peekNWithDebug"
  | "waitN";

/** QuotaOutcome is one quota's expected report in a debug step. */
export interface QuotaOutcome {
  quota: Quota;
  key: string;
  allowed: boolean;
  used: number;
  remaining: number;
  /** start and end bound the period counted in (ms since the epoch). */
  start: number;
  end: number;
  /** retry is the exact retry-after (0 by default). */
  retry?: number;
}

/** BucketOutcome is one bucket's expected report in a debug step. */
export interface BucketOutcome {
  limit: Limit;
  key: string;
  allowed: boolean;
  remaining: number;
  /** retry is the exact retry-after (0 by default); non-integers are checked with expectRetry. */
  retry?: number;
}

interface Call {
  /** at is the clock reading (ms) the step is taken at: the clock is set there, even backwards. */
  at: number;
  input: string;
  /** n is the tokens asked for (1 by default; the methods without N always ask for 1). */
  n?: number;
  /** on names the limiter (by index) to call; by default the combination, or limiter 0. */
  on?: number;
}

/** Step is one line of a case's script. */
export type Step =
  | (Call & { call: BoolMethod; allowed: boolean })
  | (Call & { call: DetailsMethod; allowed: boolean; remaining: number; retry?: number })
  | (Call & {
      call: DebugMethod;
      allowed: boolean;
      remaining: number;
      retry?: number;
      buckets: BucketOutcome[];
      /** quotas: each quota's report, when the decision has quotas (else none is reported). */
      quotas?: QuotaOutcome[];
    })
  | (Call & { call: NMethod; rejects: typeof RangeError })
  /** held: the number of buckets the case's limiters hold, all together. */
  | { held: number }
  /** forget: limiter `on` (0 by default) forgets a key and reports `deleted` buckets. */
  | { forget: string; on?: number; deleted: number };

/** SharedCase is one behaviour of the core: limiters, an optional combination, a script. */
export interface SharedCase {
  name: string;
  /** start is where the fake clock starts (0 by default). */
  start?: number;
  limiters: LimiterSpec[];
  /** combine lists the limiters (by index, repeats allowed) the default decider combines. */
  combine?: number[];
  steps: Step[];
}

/** times repeats a step `count` times. */
function times(count: number, step: Step): Step[] {
  return Array.from({ length: count }, () => step);
}

const badN = [-1, 0.5, Number.NaN];
const nMethods: NMethod[] = [
  "allowN",
  "allowNWithDetails",
  "allowNWithDebug",
  "peekN",
  "peekNWithDetails",
  "peekNWithDebug",
  "waitN",
];

const perSecond3 = limit(3, "1s");
const l2per100 = limit(2, 100);
const l3per300 = limit(3, 300);
const l3per900 = limit(3, 900);

export const sharedCases: SharedCase[] = [
  {
    name: "a single limit allows count, then denies with the time to the next token",
    limiters: [{ limits: [l3per300] }],
    steps: [
      { at: 0, call: "allowWithDetails", input: "a", allowed: true, remaining: 2 },
      { at: 0, call: "allowWithDetails", input: "a", allowed: true, remaining: 1 },
      { at: 0, call: "allow", input: "a", allowed: true },
      { at: 0, call: "allowWithDetails", input: "a", allowed: false, remaining: 0, retry: 100 },
      { at: 40, call: "allowWithDetails", input: "a", allowed: false, remaining: 0, retry: 60 },
      { at: 99, call: "allow", input: "a", allowed: false },
      { at: 100, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
      { at: 100, call: "allowWithDetails", input: "a", allowed: false, remaining: 0, retry: 100 },
      { held: 1 },
    ],
  },
  {
    name: "refills over time and caps at count after a long idle",
    limiters: [{ limits: [l3per300] }],
    steps: [
      { at: 0, call: "allowNWithDetails", input: "a", n: 3, allowed: true, remaining: 0 },
      {
        at: 150,
        call: "peekNWithDetails",
        input: "a",
        n: 2,
        allowed: false,
        remaining: 1,
        retry: 50,
      },
      { at: 250, call: "peekWithDetails", input: "a", allowed: true, remaining: 2 },
      { at: 10_000, call: "peekWithDetails", input: "a", allowed: true, remaining: 3 },
      { at: 10_000, call: "allowNWithDetails", input: "a", n: 3, allowed: true, remaining: 0 },
      {
        at: 10_000,
        call: "allowWithDetails",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 100,
      },
    ],
  },
  {
    name: "several limits decide all or nothing: a denied decision changes no bucket",
    limiters: [{ limits: [l2per100, l3per900] }],
    steps: [
      {
        at: 0,
        call: "allowWithDebug",
        input: "a",
        allowed: true,
        remaining: 1,
        buckets: [
          { limit: l2per100, key: "a", allowed: true, remaining: 1 },
          { limit: l3per900, key: "a", allowed: true, remaining: 2 },
        ],
      },
      { at: 0, call: "allow", input: "a", allowed: true },
      {
        at: 0,
        call: "allowWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 50,
        buckets: [
          { limit: l2per100, key: "a", allowed: false, remaining: 0, retry: 50 },
          { limit: l3per900, key: "a", allowed: true, remaining: 1 },
        ],
      },
      { at: 50, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
      {
        at: 100,
        call: "allowWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 200,
        buckets: [
          { limit: l2per100, key: "a", allowed: true, remaining: 1 },
          { limit: l3per900, key: "a", allowed: false, remaining: 0, retry: 200 },
        ],
      },
      {
        at: 100,
        call: "peekWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 200,
        buckets: [
          { limit: l2per100, key: "a", allowed: true, remaining: 1 },
          { limit: l3per900, key: "a", allowed: false, remaining: 0, retry: 200 },
        ],
      },
      { at: 300, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
    ],
  },
  {
    name: "cost n: n tokens at once, n = 0 always allowed, n > count never",
    limiters: [{ limits: [limit(5, 500)] }],
    steps: [
      { at: 0, call: "allowNWithDetails", input: "a", n: 2, allowed: true, remaining: 3 },
      { at: 0, call: "allowNWithDetails", input: "a", n: 0, allowed: true, remaining: 3 },
      {
        at: 0,
        call: "allowNWithDetails",
        input: "a",
        n: 4,
        allowed: false,
        remaining: 3,
        retry: 100,
      },
      {
        at: 0,
        call: "allowNWithDebug",
        input: "a",
        n: 6,
        allowed: false,
        remaining: 3,
        retry: Number.POSITIVE_INFINITY,
        buckets: [
          {
            limit: limit(5, 500),
            key: "a",
            allowed: false,
            remaining: 3,
            retry: Number.POSITIVE_INFINITY,
          },
        ],
      },
      { at: 0, call: "allowNWithDetails", input: "a", n: 3, allowed: true, remaining: 0 },
      { at: 0, call: "allowNWithDetails", input: "a", n: 0, allowed: true, remaining: 0 },
      { at: 0, call: "peekN", input: "a", n: 0, allowed: true },
      { at: 0, call: "allowN", input: "a", n: 1, allowed: false },
      {
        at: 250,
        call: "allowNWithDetails",
        input: "a",
        n: 3,
        allowed: false,
        remaining: 2,
        retry: 50,
      },
      { at: 300, call: "allowNWithDetails", input: "a", n: 3, allowed: true, remaining: 0 },
    ],
  },
  {
    name: "n = 0 and n > count on a fresh key create no bucket; waitN rejects n > count",
    limiters: [{ limits: [limit(5, 500)] }],
    steps: [
      { at: 0, call: "allowNWithDetails", input: "a", n: 0, allowed: true, remaining: 5 },
      {
        at: 0,
        call: "allowNWithDetails",
        input: "a",
        n: 6,
        allowed: false,
        remaining: 5,
        retry: Number.POSITIVE_INFINITY,
      },
      { at: 0, call: "waitN", input: "a", n: 6, rejects: RangeError },
      { held: 0 },
      { at: 0, call: "waitN", input: "a", n: 5, allowed: true, remaining: 0 },
      { held: 1 },
    ],
  },
  {
    name: "equal limits, however built, count once",
    limiters: [
      {
        limits: [
          l2per100,
          limit(2, 100),
          () => limit(2, 100),
          () => [limit(2, "100ms"), limit(2, 100)],
        ],
      },
    ],
    steps: [
      {
        at: 0,
        call: "allowWithDebug",
        input: "a",
        allowed: true,
        remaining: 1,
        buckets: [{ limit: l2per100, key: "a", allowed: true, remaining: 1 }],
      },
      { at: 0, call: "allow", input: "a", allowed: true },
      { at: 0, call: "allowWithDetails", input: "a", allowed: false, remaining: 0, retry: 50 },
      { held: 1 },
    ],
  },
  {
    name: "a different limit for the same key is a different bucket",
    limiters: [
      {
        key: (input) => input.split(":")[0] ?? "",
        limits: [(input) => (input.endsWith(":pro") ? limit(5, 100) : l2per100)],
      },
    ],
    steps: [
      { at: 0, call: "allowNWithDetails", input: "a:free", n: 2, allowed: true, remaining: 0 },
      { at: 0, call: "allowWithDetails", input: "a:free", allowed: false, remaining: 0, retry: 50 },
      {
        at: 0,
        call: "allowWithDebug",
        input: "a:pro",
        allowed: true,
        remaining: 4,
        buckets: [{ limit: limit(5, 100), key: "a", allowed: true, remaining: 4 }],
      },
      { held: 2 },
      { at: 0, call: "allowWithDetails", input: "b:free", allowed: true, remaining: 1 },
      { held: 3 },
    ],
  },
  {
    name: "limit funcs may return nothing, a Limit or an array",
    limiters: [
      {
        limits: [
          () => null,
          () => undefined,
          () => [],
          (input) => (input === "vip" ? [] : [limit(1, 100), l3per900]),
        ],
      },
    ],
    steps: [
      {
        at: 0,
        call: "allowWithDebug",
        input: "vip",
        allowed: true,
        remaining: Number.POSITIVE_INFINITY,
        buckets: [],
      },
      { held: 0 },
      {
        at: 0,
        call: "allowWithDebug",
        input: "a",
        allowed: true,
        remaining: 0,
        buckets: [
          { limit: limit(1, 100), key: "a", allowed: true, remaining: 0 },
          { limit: l3per900, key: "a", allowed: true, remaining: 2 },
        ],
      },
      {
        at: 10,
        call: "allowWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 90,
        buckets: [
          { limit: limit(1, 100), key: "a", allowed: false, remaining: 0, retry: 90 },
          { limit: l3per900, key: "a", allowed: true, remaining: 2 },
        ],
      },
      { held: 2 },
    ],
  },
  {
    name: "no limits at all: everything is allowed and nothing is held",
    limiters: [{ limits: [] }],
    steps: [
      {
        at: 0,
        call: "allowWithDetails",
        input: "a",
        allowed: true,
        remaining: Number.POSITIVE_INFINITY,
      },
      {
        at: 0,
        call: "allowNWithDebug",
        input: "a",
        n: 1_000,
        allowed: true,
        remaining: Number.POSITIVE_INFINITY,
        buckets: [],
      },
      {
        at: 0,
        call: "peekNWithDetails",
        input: "a",
        n: 7,
        allowed: true,
        remaining: Number.POSITIVE_INFINITY,
      },
      { held: 0 },
    ],
  },
  {
    name: "combine decides across limiters all or nothing",
    limiters: [{ limits: [l2per100] }, { limits: [l3per900] }],
    combine: [0, 1],
    steps: [
      { at: 0, call: "allow", input: "a", allowed: true },
      { at: 0, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
      {
        at: 0,
        call: "allowWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 50,
        buckets: [
          { limit: l2per100, key: "a", allowed: false, remaining: 0, retry: 50 },
          { limit: l3per900, key: "a", allowed: true, remaining: 1 },
        ],
      },
      // The denied decision left limiter 1's last token: it can still spend it alone.
      { at: 0, call: "allowWithDetails", input: "a", on: 1, allowed: true, remaining: 0 },
      {
        at: 50,
        call: "allowWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 250,
        buckets: [
          { limit: l2per100, key: "a", allowed: true, remaining: 1 },
          { limit: l3per900, key: "a", allowed: false, remaining: 0, retry: 250 },
        ],
      },
      { at: 50, call: "peekWithDetails", input: "a", on: 0, allowed: true, remaining: 1 },
      { at: 300, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
      { held: 2 },
    ],
  },
  {
    name: "combined limiters with an equal limit keep their own buckets",
    limiters: [{ limits: [l2per100] }, { limits: [l2per100] }],
    combine: [0, 1],
    steps: [
      { at: 0, call: "allowNWithDetails", input: "a", on: 0, n: 2, allowed: true, remaining: 0 },
      {
        at: 0,
        call: "allowWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 50,
        buckets: [
          { limit: l2per100, key: "a", allowed: false, remaining: 0, retry: 50 },
          { limit: l2per100, key: "a", allowed: true, remaining: 2 },
        ],
      },
      { at: 0, call: "allowNWithDetails", input: "a", on: 1, n: 2, allowed: true, remaining: 0 },
      { held: 2 },
    ],
  },
  {
    name: "the same limiter twice in a combine counts once",
    limiters: [{ limits: [l2per100] }],
    combine: [0, 0],
    steps: [
      {
        at: 0,
        call: "allowWithDebug",
        input: "a",
        allowed: true,
        remaining: 1,
        buckets: [{ limit: l2per100, key: "a", allowed: true, remaining: 1 }],
      },
      { at: 0, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
      { at: 0, call: "allowWithDetails", input: "a", allowed: false, remaining: 0, retry: 50 },
    ],
  },
  {
    name: "peek, peekWithDetails and peekWithDebug consume and create nothing",
    limiters: [{ limits: [l2per100, () => limit(4, 1_000)] }],
    steps: [
      { at: 0, call: "peek", input: "a", allowed: true },
      { at: 0, call: "peekN", input: "a", n: 2, allowed: true },
      { at: 0, call: "peekN", input: "a", n: 3, allowed: false },
      { at: 0, call: "peekWithDetails", input: "a", allowed: true, remaining: 2 },
      {
        at: 0,
        call: "peekNWithDetails",
        input: "a",
        n: 3,
        allowed: false,
        remaining: 2,
        retry: Number.POSITIVE_INFINITY,
      },
      {
        at: 0,
        call: "peekWithDebug",
        input: "a",
        allowed: true,
        remaining: 2,
        buckets: [
          { limit: l2per100, key: "a", allowed: true, remaining: 2 },
          { limit: limit(4, 1_000), key: "a", allowed: true, remaining: 4 },
        ],
      },
      { held: 0 },
      { at: 0, call: "allowNWithDetails", input: "a", n: 2, allowed: true, remaining: 0 },
      { held: 2 },
      ...times(3, { at: 10, call: "peek", input: "a", allowed: false }),
      {
        at: 10,
        call: "peekNWithDebug",
        input: "a",
        n: 1,
        allowed: false,
        remaining: 0,
        retry: 40,
        buckets: [
          { limit: l2per100, key: "a", allowed: false, remaining: 0, retry: 40 },
          { limit: limit(4, 1_000), key: "a", allowed: true, remaining: 2 },
        ],
      },
      { at: 50, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
    ],
  },
  {
    name: "keys are kept apart",
    limiters: [{ limits: [limit(1, 100)] }],
    steps: [
      { at: 0, call: "allow", input: "a", allowed: true },
      { at: 0, call: "allow", input: "a", allowed: false },
      { at: 0, call: "allowWithDetails", input: "b", allowed: true, remaining: 0 },
      { at: 0, call: "allow", input: "b", allowed: false },
      { at: 0, call: "allowWithDetails", input: "ab", allowed: true, remaining: 0 },
      { held: 3 },
      { forget: "a", deleted: 1 },
      { held: 2 },
      { at: 0, call: "allow", input: "a", allowed: true },
      { at: 0, call: "allow", input: "b", allowed: false },
      { forget: "nobody", deleted: 0 },
    ],
  },
  {
    name: "fractional tokens (3 per 1 s) are exact at the edges",
    limiters: [{ limits: [perSecond3] }],
    steps: [
      { at: 0, call: "allowNWithDetails", input: "a", n: 3, allowed: true, remaining: 0 },
      {
        at: 0,
        call: "allowWithDetails",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 1000 / 3,
      },
      { at: 333, call: "allowWithDetails", input: "a", allowed: false, remaining: 0, retry: 1 / 3 },
      { at: 334, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
      {
        at: 334,
        call: "allowWithDetails",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 998 / 3,
      },
      { at: 666, call: "allowWithDetails", input: "a", allowed: false, remaining: 0, retry: 2 / 3 },
      { at: 667, call: "allow", input: "a", allowed: true },
      { at: 999, call: "allowWithDetails", input: "a", allowed: false, remaining: 0, retry: 1 },
      { at: 1_000, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
      // The bucket is spent up to 1000 exactly: full again at 2000, not a hair earlier.
      { at: 1_999, call: "peekWithDetails", input: "a", allowed: true, remaining: 2 },
      { at: 2_000, call: "peekWithDetails", input: "a", allowed: true, remaining: 3 },
      {
        at: 2_000,
        call: "peekNWithDetails",
        input: "a",
        n: 4,
        allowed: false,
        remaining: 3,
        retry: Number.POSITIVE_INFINITY,
      },
    ],
  },
  {
    name: "7 per 100 ms: 7 single allows pass, the 8th fails, a full bucket again after 100 ms",
    limiters: [{ limits: [limit(7, 100)] }],
    steps: [
      ...times(7, { at: 0, call: "allow", input: "a", allowed: true }),
      { at: 0, call: "allowWithDetails", input: "a", allowed: false, remaining: 0, retry: 100 / 7 },
      { at: 14, call: "allow", input: "a", allowed: false },
      { at: 15, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
      { at: 115, call: "peekWithDetails", input: "a", allowed: true, remaining: 7 },
      ...times(7, { at: 115, call: "allow", input: "a", allowed: true }),
      { at: 115, call: "allow", input: "a", allowed: false },
    ],
  },
  {
    name: "a clock going backwards does not crash and keeps tokens within 0..count",
    start: 1_000,
    limiters: [{ limits: [l3per300] }],
    steps: [
      { at: 1_000, call: "allowNWithDetails", input: "a", n: 3, allowed: true, remaining: 0 },
      { at: 500, call: "allowWithDetails", input: "a", allowed: false, remaining: 0, retry: 600 },
      { at: 500, call: "allowNWithDetails", input: "a", n: 0, allowed: true, remaining: 0 },
      { at: 500, call: "peekN", input: "a", n: 0, allowed: true },
      {
        at: 500,
        call: "peekWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 600,
        buckets: [{ limit: l3per300, key: "a", allowed: false, remaining: 0, retry: 600 }],
      },
      { at: 500, call: "allowWithDetails", input: "b", allowed: true, remaining: 2 },
      {
        at: -5_000,
        call: "allowWithDetails",
        input: "b",
        allowed: false,
        remaining: 0,
        retry: 5_400,
      },
      { at: 1_100, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
      { at: 5_000, call: "peekWithDetails", input: "a", allowed: true, remaining: 3 },
      { at: 5_000, call: "peekWithDetails", input: "b", allowed: true, remaining: 3 },
    ],
  },
  {
    name: "n negative, fractional or NaN is a RangeError from every N method, creating nothing",
    limiters: [{ limits: [l3per300, () => l3per900] }],
    steps: [
      ...badN.flatMap((n) =>
        nMethods.map((call): Step => ({ at: 0, call, input: "a", n, rejects: RangeError })),
      ),
      { held: 0 },
    ],
  },
  {
    name: "n negative, fractional or NaN is a RangeError from a combine too",
    limiters: [{ limits: [l3per300] }, { limits: [l3per900] }],
    combine: [0, 1],
    steps: [
      ...badN.flatMap((n) =>
        nMethods.map((call): Step => ({ at: 0, call, input: "a", n, rejects: RangeError })),
      ),
      { held: 0 },
    ],
  },
];

/** PropertyStep is one random step: move the clock by `advanceMs` (maybe back), then decide. */
export interface PropertyStep {
  advanceMs: number;
  key: string;
  n: number;
  take: boolean;
}

/** propertyLimitsArb draws one to three small limits for a property run. */
export const propertyLimitsArb = fc.array(
  fc
    .record({
      count: fc.integer({ min: 1, max: 10 }),
      periodMs: fc.integer({ min: 1, max: 3_000 }),
    })
    .map(({ count, periodMs }) => limit(count, periodMs)),
  { minLength: 1, maxLength: 3 },
);

/** propertyStepsArb draws a script of decisions, mostly forward in time, sometimes back. */
export const propertyStepsArb = fc.array(
  fc.record({
    advanceMs: fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 1_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: -1_000, max: -1 }) },
    ),
    key: fc.constantFrom("a", "b"),
    n: fc.integer({ min: 0, max: 12 }),
    take: fc.boolean(),
  }),
  { minLength: 1, maxLength: 30 },
);

/** propertyStartArb draws where the clock starts. */
export const propertyStartArb = fc.integer({ min: -1e9, max: 1e12 });
