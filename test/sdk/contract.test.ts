// The SDK cannot import the server's code (it is its own package), so it mirrors a few words of
// the server: these tests hold the mirror to the original.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DecisionResult } from "@/lib/data-plane/decision-result";
import { bearerToken } from "@/lib/policy/api-key";
import { STATUS_OF_REASON } from "@/lib/policy/decide";
import { BEARER_CHALLENGE, identityRefusal, missingKey } from "@/lib/policy/refusal";
import { decisionRequestSchema, MAX_BATCH_DECISIONS } from "@/lib/schemas/decision.schema";
import { OPERATIONS as APP_OPERATIONS, operationOf as appOperationOf } from "@/lib/vocabulary";
import {
  bearerKey,
  DECISION_REASONS,
  type Decision,
  MAX_BATCH,
  MAX_KEY_LENGTH,
  OPERATIONS,
  operationOf,
} from "@/sdk/src/index";
import {
  missingKeyProblem,
  BEARER_CHALLENGE as SDK_BEARER_CHALLENGE,
  unknownKeyProblem,
} from "@/sdk/src/problems";

// The server's answer type fits the SDK's: a type error here is a contract change.
const fits: (result: DecisionResult) => Decision = (result) => result;

describe("the SDK's words are the server's", () => {
  it("has the server's decision reasons", () => {
    expect([...DECISION_REASONS].sort()).toEqual(Object.keys(STATUS_OF_REASON).sort());
  });

  it("has the server's batch size and longest key", () => {
    expect(MAX_BATCH).toBe(MAX_BATCH_DECISIONS);
    const key = (length: number) =>
      decisionRequestSchema.safeParse({ key: "k".repeat(length), operation: "read" }).success;
    expect([key(MAX_KEY_LENGTH), key(MAX_KEY_LENGTH + 1)]).toEqual([true, false]);
    expect(typeof fits).toBe("function");
  });

  it("answers the refusals it makes itself as the server does", () => {
    expect(missingKeyProblem()).toEqual(missingKey().body);
    expect(unknownKeyProblem()).toEqual(identityRefusal("unknown_key").body);
    expect(SDK_BEARER_CHALLENGE).toBe(BEARER_CHALLENGE["WWW-Authenticate"]);
  });

  it("has the server's operations", () => {
    expect(OPERATIONS).toEqual(APP_OPERATIONS);
  });

  it("maps every method to the server's operation", () => {
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]) {
      expect(operationOf(method), method).toBe(appOperationOf(method));
    }
  });

  it("reads a Bearer key exactly as the server does, whatever the Authorization field", () => {
    const field = fc.oneof(
      fc.string(),
      fc
        .tuple(
          fc.constantFrom("Bearer", "bearer", "BEARER", "Basic", "Bearerx", ""),
          fc.constantFrom(" ", "\t", "  ", "", " \t"),
          fc.string(),
          fc.constantFrom("", " ", "\t", " x"),
        )
        .map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(field, (header) => {
        expect(bearerKey(header)).toBe(bearerToken(header));
      }),
      { numRuns: 2000 },
    );
    expect(bearerKey(null)).toBe(bearerToken(null));
  });
});
