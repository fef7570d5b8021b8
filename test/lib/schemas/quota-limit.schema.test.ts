import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "@/lib/schemas/problem.schema";
import {
  anyLimitRowsSchema,
  anyOverrideLimitsSchema,
  isQuotaInput,
} from "@/lib/schemas/quota-limit.schema";

function errorsOf(
  schema: typeof anyLimitRowsSchema | typeof anyOverrideLimitsSchema,
  rows: unknown,
) {
  const parsed = schema.safeParse(rows);
  return parsed.success ? {} : fieldErrorsOf(parsed.error);
}

describe("limit rows that may be quotas", () => {
  it("tells a quota's row by its period", () => {
    expect(isQuotaInput({ count: 1, period: "day" })).toBe(true);
    expect(isQuotaInput({ count: 1, periodMs: 1_000 })).toBe(false);
    expect(isQuotaInput({ count: 1, period: undefined, periodMs: 1_000 })).toBe(false);
  });

  it("checks a bucket's row and a quota's each by its own rules, errors at the row's fields", () => {
    expect(
      errorsOf(anyLimitRowsSchema, [
        { operation: "read", count: 10, periodMs: 0 },
        { operation: "read", count: 10, period: "year" },
        { operation: "read", count: 10, period: "day", extra: 1 },
      ]),
    ).toEqual({
      "0.periodMs": ["Period must be positive"],
      "1.period": ["Period must be day, week or month"],
      "2.extra": ["Unknown field"],
    });
  });

  it("refuses a row with both a period in ms and a calendar period", () => {
    expect(
      errorsOf(anyLimitRowsSchema, [
        { operation: "read", count: 1, periodMs: 1_000, period: "day" },
      ]),
    ).toEqual({
      "0": ["A limit counts per period in ms (a bucket) or per day, week or month, not both"],
    });
  });

  it("still refuses a repeated bucket, and an override of dry-run quotas alone", () => {
    expect(
      errorsOf(anyLimitRowsSchema, [
        { operation: "read", count: 1, periodMs: 1_000 },
        { operation: "read", count: 1, periodMs: 1_000 },
      ]),
    ).toEqual({ "1": ["Duplicate limit"] });
    expect(errorsOf(anyOverrideLimitsSchema, [{ count: 1, period: "day", dryRun: true }])).toEqual({
      "": ["Keep at least one enforced limit: dry-run limits alone would lift the plan's"],
    });
  });
});
