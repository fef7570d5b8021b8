import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flatKeysOnce, repeatedKeyPaths } from "@/lib/http/repeated-keys";
import { MAX_COST } from "@/lib/schemas/cost.schema";
import {
  decisionBatchSchema,
  decisionRequestSchema,
  MAX_BATCH_DECISIONS,
  MAX_KEY_LENGTH,
  plainDecisionBatch,
  plainDecisionRequest,
} from "@/lib/schemas/decision.schema";

// The decision API reads plain bodies by hand (plainDecisionRequest) and everything else with
// the schema: these properties hold the two to the same answers.

const odd = fc.oneof(
  fc.constantFrom(0, -1, 1.5, MAX_COST, MAX_COST + 1, Number.MAX_SAFE_INTEGER + 1, 1e21, -0),
  fc.constantFrom(
    "",
    "read",
    "write",
    "READ",
    "x".repeat(MAX_KEY_LENGTH + 1),
    "x".repeat(MAX_KEY_LENGTH),
  ),
  fc.constantFrom(true, false, null),
  fc.constant([]),
  fc.constant({}),
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const field = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 1, arbitrary: valid }, odd);

/** nearDecision makes objects shaped like decisions: most fields valid, some not, some extra. */
const nearDecision = fc.record(
  {
    key: field(fc.string({ minLength: 1, maxLength: 40 })),
    customerId: field(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })),
    operation: field(fc.constantFrom("read", "write")),
    cost: field(fc.integer({ min: 1, max: MAX_COST })),
    peek: field(fc.boolean()),
    extra: odd,
    __proto__: odd,
  },
  { requiredKeys: [] },
);

/** plainDecision makes valid decisions of the common shape: the hot path must take every one. */
const plainDecision = fc
  .record(
    {
      who: fc.oneof(
        fc.record({ key: fc.string({ minLength: 1, maxLength: MAX_KEY_LENGTH }) }),
        fc.record({ customerId: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }) }),
      ),
      operation: fc.constantFrom("read", "write"),
      cost: fc.integer({ min: 1, max: MAX_COST }),
      peek: fc.boolean(),
    },
    { requiredKeys: ["who", "operation"] },
  )
  .map(({ who, ...rest }) => ({ ...who, ...rest }));

describe("a plain decision read by hand", () => {
  it("accepts only what the schema accepts, and gives what the schema gives", () => {
    fc.assert(
      fc.property(fc.oneof(nearDecision, fc.jsonValue()), (raw) => {
        // Through JSON, as a body arrives (own __proto__ keys and -0 as JSON.parse makes them).
        const value: unknown = JSON.parse(JSON.stringify(raw) ?? "null");
        const plain = plainDecisionRequest(value);
        const parsed = decisionRequestSchema.safeParse(value);
        if (plain !== undefined) {
          expect(parsed.success).toBe(true);
          expect(plain).toEqual(parsed.data);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it("agrees with the schema at every bound", () => {
    const at = (fields: Record<string, unknown>) => ({ operation: "read", ...fields });
    const cases = [
      at({ key: "" }),
      at({ key: "k".repeat(MAX_KEY_LENGTH) }),
      at({ key: "k".repeat(MAX_KEY_LENGTH + 1) }),
      at({ customerId: 0 }),
      at({ customerId: 1.5 }),
      at({ customerId: Number.MAX_SAFE_INTEGER }),
      at({ customerId: Number.MAX_SAFE_INTEGER + 1 }),
      at({ key: "k", customerId: 1 }),
      at({}),
      at({ key: "k", cost: 0 }),
      at({ key: "k", cost: MAX_COST }),
      at({ key: "k", cost: MAX_COST + 1 }),
      at({ key: "k", cost: 2.5 }),
      at({ key: "k", peek: "true" }),
      at({ key: "k", operation: "READ" }),
      at({ key: "k", extra: 1 }),
      { key: "k" },
    ];
    for (const value of cases) {
      const parsed = decisionRequestSchema.safeParse(value);
      expect(plainDecisionRequest(value), JSON.stringify(value)).toEqual(
        parsed.success ? parsed.data : undefined,
      );
    }
  });

  it("takes every valid decision of the common shape", () => {
    fc.assert(
      fc.property(plainDecision, (raw) => {
        const value: unknown = JSON.parse(JSON.stringify(raw));
        const plain = plainDecisionRequest(value);
        expect(plain).toBeDefined();
        expect(plain).toEqual(decisionRequestSchema.parse(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads batches as the batch schema does", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({
            decisions: fc.array(fc.oneof(plainDecision, nearDecision), { maxLength: 5 }),
          }),
          fc.record({ decisions: fc.array(plainDecision, { minLength: 1, maxLength: 5 }) }),
          fc.record({ decisions: odd, other: odd }, { requiredKeys: [] }),
        ),
        (raw) => {
          const value: unknown = JSON.parse(JSON.stringify(raw));
          const plain = plainDecisionBatch(value);
          const parsed = decisionBatchSchema.safeParse(value);
          if (plain !== undefined) expect(plain).toEqual(parsed.data);
          else if (
            (value as { decisions: unknown[] }).decisions?.every?.(
              (d) => plainDecisionRequest(d) !== undefined,
            ) &&
            Object.keys(value as object).length === 1 &&
            (value as { decisions: unknown[] }).decisions.length >= 1
          ) {
            throw new Error(`a plain batch was passed on: ${JSON.stringify(value)}`);
          }
          if (plain !== undefined) expect(parsed.success).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
    const many = {
      decisions: Array.from({ length: MAX_BATCH_DECISIONS + 1 }, () => ({
        key: "k",
        operation: "read",
      })),
    };
    expect(plainDecisionBatch(many)).toBeUndefined();
    many.decisions.pop();
    expect(plainDecisionBatch(many)?.decisions).toHaveLength(MAX_BATCH_DECISIONS);
  });
});

describe("flatKeysOnce", () => {
  const name = fc.constantFrom("key", "operation", "cost", "peek", "a", ",", ":", "k\\\\ey");
  const primitive = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), name);

  it("never says once when a key is given twice", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, primitive), { maxLength: 6 }), (pairs) => {
        const text = `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`;
        const value = JSON.parse(text) as Record<string, unknown>;
        if (flatKeysOnce(text, value)) expect(repeatedKeyPaths(text)).toBeNull();
      }),
      { numRuns: 5_000 },
    );
  });

  it("says once for a plain body, and not for a repeated or escaped key", () => {
    const plain = '{"key":"rk_abc","operation":"read"}';
    expect(flatKeysOnce(plain, JSON.parse(plain))).toBe(true);
    const twice = '{"key":"rk_abc","operation":"read","operation":"write"}';
    expect(flatKeysOnce(twice, JSON.parse(twice))).toBe(false);
    const escaped = '{"key":"rk_abc","operation":"read","\\u006fperation":"write"}';
    expect(flatKeysOnce(escaped, JSON.parse(escaped))).toBe(false);
  });
});
