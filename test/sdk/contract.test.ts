// The SDK cannot import the server's code (it is its own package), so it mirrors a few words of
// the server: these tests hold the mirror to the original.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashServiceToken } from "@/lib/auth/service-token";
import { ServiceTokenUses } from "@/lib/auth/service-token-uses";
import { authenticateService, missingScope } from "@/lib/data-plane/service-auth";
import { SERVICE_TOKEN_PATH as APP_SERVICE_TOKEN_PATH } from "@/lib/data-plane/service-token-answer";
import { bearerToken, readBearer } from "@/lib/policy/api-key";
import { STATUS_OF_REASON } from "@/lib/policy/decide";
import {
  authorizationRefusal,
  BEARER_CHALLENGE,
  identityRefusal,
  missingKey,
} from "@/lib/policy/refusal";
import { buildSnapshot } from "@/lib/policy/snapshot";
import { decisionRequestSchema, MAX_BATCH_DECISIONS } from "@/lib/schemas/decision.schema";
import type { DecisionAnswer, ServiceTokenAnswer } from "@/lib/schemas/decision-answer.schema";
import {
  CLASS_NAME_PATTERN as APP_CLASS_NAME_PATTERN,
  DECISION_REASONS as APP_DECISION_REASONS,
  DEFAULT_CLASSES as APP_DEFAULT_CLASSES,
  SERVICE_TOKEN_SCOPES as APP_SERVICE_TOKEN_SCOPES,
  operationOf as appOperationOf,
} from "@/lib/vocabulary";
import { refusalSummary } from "@/sdk/src/errors";
import {
  bearerKey,
  CLASS_NAME_PATTERN,
  DECISION_REASONS,
  DEFAULT_CLASSES,
  type Decision,
  type DecisionQuota,
  MAX_BATCH,
  MAX_KEY_LENGTH,
  OPERATIONS,
  operationOf,
  SERVICE_TOKEN_SCOPES,
  type ServiceTokenInfo,
} from "@/sdk/src/index";
import {
  authorizationProblem,
  missingKeyProblem,
  BEARER_CHALLENGE as SDK_BEARER_CHALLENGE,
  unknownKeyProblem,
} from "@/sdk/src/problems";
import { SERVICE_TOKEN_PATH } from "@/sdk/src/verify";

// The server's answer types fit the SDK's: a type error here is a contract change.
const fits: (result: DecisionAnswer) => Decision = (result) => result;
const tokenFits: (answer: ServiceTokenAnswer) => ServiceTokenInfo = (a) => a.serviceToken;
// Regression: the SDK's Decision had no `quotas` (an extra optional field fits silently), so a
// service could not read a quota's use. Both ways: the server's quotas are the SDK's, and back.
const quotasFit: (quotas: NonNullable<DecisionAnswer["quotas"]>) => Decision["quotas"] = (q) => q;
const quotasFitBack: (quotas: DecisionQuota[]) => DecisionAnswer["quotas"] = (q) => q;

/** REVOKED is the one service token of the policy serverRefusal decides on: revoked. */
const REVOKED = "rks_revoked-token";

/**
 * serverRefusal is the 401 the decision API answers for an Authorization field, on a policy
 * whose only service token, REVOKED, was revoked.
 */
function serverRefusal(authorization: string | undefined) {
  const snapshot = buildSnapshot(
    {
      plans: [],
      customers: [],
      overrides: [],
      serviceTokens: [],
      revokedServiceTokens: [{ id: 1, name: "orders", tokenHash: hashServiceToken(REVOKED) }],
    },
    0,
  );
  const auth = authenticateService(
    snapshot,
    new ServiceTokenUses(),
    { now: () => 0, sleep: async () => {} },
    authorization,
  );
  if (auth.ok) throw new Error("an empty policy admitted a token");
  return auth.refusal;
}

describe("the SDK's words are the server's", () => {
  it("has the server's decision reasons", () => {
    expect([...DECISION_REASONS].sort()).toEqual(Object.keys(STATUS_OF_REASON).sort());
    expect(DECISION_REASONS).toEqual(APP_DECISION_REASONS);
  });

  it("has the server's batch size and longest key", () => {
    expect(MAX_BATCH).toBe(MAX_BATCH_DECISIONS);
    const key = (length: number) =>
      decisionRequestSchema.safeParse({ key: "k".repeat(length), operation: "read" }).success;
    expect([key(MAX_KEY_LENGTH), key(MAX_KEY_LENGTH + 1)]).toEqual([true, false]);
    expect(typeof fits).toBe("function");
  });

  it("reads a decision's quotas as the server answers them", () => {
    const quota: DecisionQuota = {
      policy: "exports-50-per-month",
      count: 50,
      period: "month",
      timeZone: "UTC",
      used: 49,
      remaining: 0,
      periodStartMs: 0,
      periodEndMs: 2_678_400_000,
      resetAfterMs: 1_000,
    };
    expect(quotasFitBack([quota])).toEqual(quotasFit([quota]));
  });

  it("answers the refusals it makes itself as the server does", () => {
    expect(missingKeyProblem()).toEqual(missingKey().body);
    expect(unknownKeyProblem()).toEqual(identityRefusal("unknown_key").body);
    expect(SDK_BEARER_CHALLENGE).toBe(BEARER_CHALLENGE["WWW-Authenticate"]);
  });

  // Regression: the middleware answered `Authorization: <key>` (no Bearer) "Missing API key".
  it("answers an Authorization field without a Bearer key in the server's words", () => {
    for (const field of ["", "Bearer", "rk_abc", "Basic dXNlcjpwYXNz", "Bearer a b"]) {
      const read = readBearer(field);
      if (read.ok) throw new Error(`${field} has a Bearer key`);
      expect(authorizationProblem(field)).toEqual(
        authorizationRefusal(read.problem, "API key").body,
      );
    }
    expect(authorizationProblem("rk_abc").title).toBe("Use the Bearer scheme");
  });

  it("has the server's service token scopes and path", () => {
    expect(SERVICE_TOKEN_SCOPES).toEqual(APP_SERVICE_TOKEN_SCOPES);
    expect(`/${SERVICE_TOKEN_PATH}`).toBe(APP_SERVICE_TOKEN_PATH);
    expect(typeof tokenFits).toBe("function");
  });

  it("names the cause of each of the server's token refusals in its 503", () => {
    const missing = serverRefusal(undefined);
    expect(refusalSummary(missing.status, missing.body)).toBe(
      "Ratekeeper refused this service's token (none was received)",
    );
    const unknown = serverRefusal("Bearer rks_unknown");
    expect(refusalSummary(unknown.status, unknown.body)).toBe(
      "Ratekeeper refused this service's token (it is unknown)",
    );
    // Regression: the SDK said "revoked or unknown" though the server knows which.
    const revoked = serverRefusal(`Bearer ${REVOKED}`);
    expect(refusalSummary(revoked.status, revoked.body)).toBe(
      "Ratekeeper refused this service's token (it was revoked)",
    );
    const scope = missingScope("decide", "This token may only peek.");
    expect(refusalSummary(scope.status, scope.body)).toBe(
      "Ratekeeper refused this service's token (it lacks the decide scope)",
    );
  });

  it("has the server's operations", () => {
    expect(OPERATIONS).toEqual(APP_DEFAULT_CLASSES);
  });

  it("has the server's default classes and class-name pattern", () => {
    expect(DEFAULT_CLASSES).toEqual(APP_DEFAULT_CLASSES);
    expect(CLASS_NAME_PATTERN.source).toBe(APP_CLASS_NAME_PATTERN.source);
    expect(CLASS_NAME_PATTERN.flags).toBe(APP_CLASS_NAME_PATTERN.flags);
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
