import { describe, expect, it } from "vitest";
import type { UsageBatch } from "@/lib/usage/batch";
import { batchOfHash, incrementsOf } from "@/lib/usage/redis-codec";

const row = {
  startMs: 60_000,
  customerId: 7,
  operation: "write" as const,
  planId: 2,
  allowed: 3,
  denied: 1,
  unavailable: 0,
  tokensRequested: 4,
  tokensTaken: 3,
  tooLarge: 2,
};

/** hashOf applies a batch's increments to one minute's hash, as the PUSH script does. */
function hashOf(batch: UsageBatch): Record<string, string> {
  const hash: Record<string, number> = {};
  for (const { field, by } of incrementsOf(batch)) hash[field] = (hash[field] ?? 0) + by;
  return Object.fromEntries(Object.entries(hash).map(([k, v]) => [k, String(v)]));
}

describe("the usage counts in Redis", () => {
  // The counter of requests refused for their cost travels with the others, by index.
  it("carry every counter of a row, requests too large included, there and back", () => {
    const hash = hashOf({ rows: [row], dryRun: [] });
    expect(hash["u|7|2|write|5"]).toBe("2");
    expect(batchOfHash(60_000, hash)).toEqual({ rows: [row], dryRun: [] });
  });

  it("read a minute pushed by an instance that counted no requests too large", () => {
    const hash = hashOf({ rows: [row], dryRun: [] });
    delete hash["u|7|2|write|5"];
    expect(batchOfHash(60_000, hash).rows).toEqual([{ ...row, tooLarge: 0 }]);
  });
});
