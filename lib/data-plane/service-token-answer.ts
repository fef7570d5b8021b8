import { SERVICE_TOKEN_SHOWN } from "@/lib/auth/service-token";
import { type HttpAnswer, jsonAnswer, problemAnswer, refusalAnswer } from "@/lib/http/answer";
import { bearerToken } from "@/lib/policy/api-key";
import type { ServiceTokenAnswer } from "@/lib/schemas/decision-answer.schema";
import { SERVICE_TOKEN_SCOPES } from "@/lib/vocabulary";
import type { DecisionRuntime } from "./decision-api";
import { authenticateService } from "./service-auth";

/** SERVICE_TOKEN_PATH is where a service asks about its own token (GET). */
export const SERVICE_TOKEN_PATH = "/api/v1/service-token";

/**
 * answerServiceToken answers GET /api/v1/service-token: the calling service token's id, name,
 * prefix and scopes (200), so a service can check its configuration at start-up; a missing,
 * unknown or revoked token is the decision API's own 401, any method but GET a 405. Any live
 * token may describe itself, whatever its scopes; the call is not a decision, so a refusal here
 * is not counted as a refused decision call.
 */
export function answerServiceToken(
  rt: DecisionRuntime,
  method: string | undefined,
  authorization: string | undefined,
): HttpAnswer {
  if (method !== "GET") {
    return problemAnswer(405, "Method not allowed", { detail: "Use GET." }, { Allow: "GET" });
  }
  const auth = authenticateService(
    rt.policy.snapshot,
    rt.serviceTokenUsage,
    rt.clock,
    authorization,
  );
  if (!auth.ok) return refusalAnswer(auth.refusal);
  const { id, name, scopes } = auth.token;
  const answer: ServiceTokenAnswer = {
    serviceToken: {
      id,
      name,
      prefix: (bearerToken(authorization ?? null) ?? "").slice(0, SERVICE_TOKEN_SHOWN),
      scopes: SERVICE_TOKEN_SCOPES.filter((scope) => scopes.has(scope)),
    },
  };
  return jsonAnswer(200, JSON.stringify(answer));
}
