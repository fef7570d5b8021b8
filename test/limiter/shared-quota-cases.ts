import { limit, quota } from "@/lib/limiter";
import type { SharedCase, Step } from "./shared-cases";

/**
 * The quota cases of the limiter core, run against both implementations (in memory and Redis)
 * by shared-cases.test.ts beside the bucket cases: the same steps must give the same Details,
 * bucket and quota reports on both. Times are ms since the Unix epoch, as quotas need.
 */

const at = (iso: string) => Date.parse(iso);
const MAY_10 = at("2026-05-10T12:00:00Z");
const MAY_11 = at("2026-05-11T00:00:00Z");
const MAY_1 = at("2026-05-01T00:00:00Z");
const JUNE_1 = at("2026-06-01T00:00:00Z");

const day3 = quota(3, "day");
const month5 = quota(5, "month");
const perHour2 = limit(2, "1h");
const feb31 = quota(2, "month", { anchorDay: 31 });
const berlinDay = quota(2, "day", { timeZone: "Europe/Berlin" });

export const sharedQuotaCases: SharedCase[] = [
  {
    name: "quota: admits its count per day, refuses until the day's end, starts afresh after an idle boundary",
    start: MAY_10,
    limiters: [{ limits: [day3] }],
    steps: [
      { at: MAY_10, call: "allowNWithDetails", input: "a", n: 2, allowed: true, remaining: 1 },
      { at: MAY_10, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
      {
        at: MAY_10 + 1_000,
        call: "allowWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: MAY_11 - MAY_10 - 1_000,
        buckets: [],
        quotas: [
          {
            quota: day3,
            key: "a",
            allowed: false,
            used: 3,
            remaining: 0,
            start: at("2026-05-10T00:00:00Z"),
            end: MAY_11,
            retry: MAY_11 - MAY_10 - 1_000,
          },
        ],
      },
      { at: MAY_11 - 1, call: "allow", input: "a", allowed: false },
      { held: 1 },
      { at: MAY_11 + 7_000, call: "allowWithDetails", input: "a", allowed: true, remaining: 2 },
      { at: MAY_11 + 7_000, call: "peek", input: "b", allowed: true },
      { held: 1 },
      { forget: "a", deleted: 1 },
      { held: 0 },
    ],
  },
  {
    name: "quota: cost-based n, n = 0, and n above the count (Infinity; waitN rejects)",
    start: MAY_10,
    limiters: [{ limits: [day3] }],
    steps: [
      { at: MAY_10, call: "allowNWithDetails", input: "a", n: 2, allowed: true, remaining: 1 },
      {
        at: MAY_10,
        call: "peekNWithDetails",
        input: "a",
        n: 2,
        allowed: false,
        remaining: 1,
        retry: MAY_11 - MAY_10,
      },
      { at: MAY_10, call: "allowNWithDetails", input: "a", n: 0, allowed: true, remaining: 1 },
      {
        at: MAY_10,
        call: "allowNWithDetails",
        input: "b",
        n: 4,
        allowed: false,
        remaining: 3,
        retry: Number.POSITIVE_INFINITY,
      },
      { at: MAY_10, call: "waitN", input: "b", n: 4, rejects: RangeError },
      { held: 1 },
    ],
  },
  {
    name: "quota and bucket: a refusal by either takes nothing from the other",
    start: MAY_10,
    limiters: [{ limits: [perHour2, day3] }],
    steps: [
      { at: MAY_10, call: "allowNWithDetails", input: "a", n: 2, allowed: true, remaining: 0 },
      // The bucket refuses: the quota keeps 1 left.
      {
        at: MAY_10,
        call: "allowWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 1_800_000,
        buckets: [{ limit: perHour2, key: "a", allowed: false, remaining: 0, retry: 1_800_000 }],
        quotas: [
          {
            quota: day3,
            key: "a",
            allowed: true,
            used: 2,
            remaining: 1,
            start: at("2026-05-10T00:00:00Z"),
            end: MAY_11,
          },
        ],
      },
      // An hour later the bucket is full; the quota refuses 2 and takes nothing from it.
      {
        at: MAY_10 + 3_600_000,
        call: "allowNWithDetails",
        input: "a",
        n: 2,
        allowed: false,
        remaining: 1,
        retry: MAY_11 - MAY_10 - 3_600_000,
      },
      {
        at: MAY_10 + 3_600_000,
        call: "peekNWithDebug",
        input: "a",
        n: 2,
        allowed: false,
        remaining: 1,
        retry: MAY_11 - MAY_10 - 3_600_000,
        buckets: [{ limit: perHour2, key: "a", allowed: true, remaining: 2 }],
        quotas: [
          {
            quota: day3,
            key: "a",
            allowed: false,
            used: 2,
            remaining: 1,
            start: at("2026-05-10T00:00:00Z"),
            end: MAY_11,
            retry: MAY_11 - MAY_10 - 3_600_000,
          },
        ],
      },
      { at: MAY_10 + 3_600_000, call: "allowWithDetails", input: "a", allowed: true, remaining: 0 },
    ],
  },
  {
    name: "quota across combined limiters: all or nothing, the longest retry",
    start: MAY_10,
    limiters: [{ limits: [month5] }, { limits: [perHour2] }],
    combine: [0, 1],
    steps: [
      { at: MAY_10, call: "allowNWithDetails", input: "a", n: 2, allowed: true, remaining: 0 },
      { at: MAY_10, call: "allow", input: "a", allowed: false },
      { at: MAY_10, call: "peekWithDetails", input: "a", on: 0, allowed: true, remaining: 3 },
      { at: MAY_10 + 3_600_000, call: "allowN", input: "a", n: 2, allowed: true },
      {
        at: MAY_10 + 7_200_000,
        call: "allowNWithDetails",
        input: "a",
        n: 2,
        allowed: false,
        remaining: 1,
        retry: JUNE_1 - MAY_10 - 7_200_000,
      },
      {
        at: MAY_10 + 7_200_000,
        call: "peekWithDetails",
        input: "a",
        on: 1,
        allowed: true,
        remaining: 2,
      },
      { held: 2 },
    ],
  },
  {
    name: "quota edited mid-period keeps what was used (state per calendar, not per count)",
    start: MAY_10,
    limiters: [
      {
        key: (input) => input.replace("!", ""),
        limits: [(input) => quota(input.endsWith("!") ? 5 : 3, "month")],
      },
    ],
    steps: [
      { at: MAY_10, call: "allowNWithDetails", input: "a", n: 3, allowed: true, remaining: 0 },
      { at: MAY_10, call: "allow", input: "a", allowed: false },
      { at: MAY_10, call: "allowWithDetails", input: "a!", allowed: true, remaining: 1 },
      {
        at: MAY_10,
        call: "peekWithDebug",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: JUNE_1 - MAY_10,
        buckets: [],
        quotas: [
          {
            quota: quota(3, "month"),
            key: "a",
            allowed: false,
            used: 4,
            remaining: 0,
            start: MAY_1,
            end: JUNE_1,
            retry: JUNE_1 - MAY_10,
          },
        ],
      },
      { held: 1 },
    ],
  },
  {
    name: "quota: anchor 31 months through February (non-leap 2027) and April",
    start: at("2027-02-27T12:00:00Z"),
    limiters: [{ limits: [feb31] }],
    steps: [
      ...Array.from(
        { length: 2 },
        (): Step => ({ at: at("2027-02-27T12:00:00Z"), call: "allow", input: "a", allowed: true }),
      ),
      {
        at: at("2027-02-27T12:00:00Z"),
        call: "allowWithDetails",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: at("2027-02-28T00:00:00Z") - at("2027-02-27T12:00:00Z"),
      },
      {
        at: at("2027-02-28T00:00:00Z"),
        call: "allowWithDebug",
        input: "a",
        allowed: true,
        remaining: 1,
        buckets: [],
        quotas: [
          {
            quota: feb31,
            key: "a",
            allowed: true,
            used: 0,
            remaining: 1,
            start: at("2027-02-28T00:00:00Z"),
            end: at("2027-03-31T00:00:00Z"),
          },
        ],
      },
      {
        at: at("2027-04-29T23:59:59Z"),
        call: "allowNWithDebug",
        input: "a",
        n: 2,
        allowed: true,
        remaining: 0,
        buckets: [],
        quotas: [
          {
            quota: feb31,
            key: "a",
            allowed: true,
            used: 0,
            remaining: 0,
            start: at("2027-03-31T00:00:00Z"),
            end: at("2027-04-30T00:00:00Z"),
          },
        ],
      },
      { at: at("2027-04-30T00:00:00Z"), call: "allowN", input: "a", n: 2, allowed: true },
    ],
  },
  {
    name: "quota: a Berlin day across the spring-forward change is 23 hours",
    start: at("2026-03-29T12:00:00+02:00"),
    limiters: [{ limits: [berlinDay] }],
    steps: [
      { at: at("2026-03-29T12:00:00+02:00"), call: "allowN", input: "a", n: 2, allowed: true },
      {
        at: at("2026-03-29T12:00:00+02:00"),
        call: "allowWithDetails",
        input: "a",
        allowed: false,
        remaining: 0,
        retry: 12 * 3_600_000,
      },
      { at: at("2026-03-29T23:59:59+02:00"), call: "allow", input: "a", allowed: false },
      { at: at("2026-03-30T00:00:00+02:00"), call: "allow", input: "a", allowed: true },
    ],
  },
];
