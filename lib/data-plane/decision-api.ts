import type { z } from "zod";
import type { ServiceTokenUsage } from "@/lib/auth/service-token-usage";
import { fieldErrorsOf } from "@/lib/http";
import {
  type DecisionContext,
  decide,
  type Identity,
  identify,
  identifyById,
} from "@/lib/policy/decide";
import type { PolicyStore } from "@/lib/policy/policy-store";
import type { PolicySnapshot, ServiceTokenPolicy } from "@/lib/policy/snapshot";
import {
  type DecisionRequest,
  decisionBatchSchema,
  decisionRequestSchema,
} from "@/lib/schemas/decision.schema";
import {
  invalidAnswer,
  jsonAnswer,
  type PlaneAnswer,
  problemAnswer,
  refusalAnswer,
  tooLargeAnswer,
} from "./answer";
import {
  type DecisionResult,
  decisionResultJson,
  resultOfIdentity,
  resultOfVerdict,
} from "./decision-result";
import { authenticateService, missingScope } from "./service-auth";

/** DECISION_BODY_LIMIT is the largest body of one decision: 64 KiB. */
export const DECISION_BODY_LIMIT = 64 * 1024;
/** BATCH_BODY_LIMIT is the largest body of a batch (1,000 decisions): 1 MiB. */
export const BATCH_BODY_LIMIT = 1024 * 1024;

/** DecisionRuntime is what the decision API needs of the process. */
export interface DecisionRuntime extends DecisionContext {
  policy: PolicyStore;
  serviceTokenUsage: ServiceTokenUsage;
}

/** BodyRead is a request body read as text, or the reason it was not. */
export type BodyRead = { ok: true; text: string } | { ok: false; tooLarge: true };

/** DecisionCall is an HTTP request to the decision API, whatever server received it. */
export interface DecisionCall {
  authorization: string | undefined;
  contentType: string | undefined;
  /** read reads the body, refusing one over `maxBytes` (without reading it, when it says so). */
  read(maxBytes: number): Promise<BodyRead>;
}

const JSON_TYPE = /^application\/json[ \t]*(;|$)/i;

type Accepted<T> =
  | { ok: true; token: ServiceTokenPolicy; data: T }
  | { ok: false; answer: PlaneAnswer };

/**
 * accept checks a call in order (service token 401, media type 415, size 413, JSON and fields
 * 400) and returns the validated body. Nothing here takes a token from any bucket.
 */
async function accept<S extends z.ZodType>(
  rt: DecisionRuntime,
  call: DecisionCall,
  schema: S,
  maxBytes: number,
): Promise<Accepted<z.infer<S>>> {
  const auth = authenticateService(
    rt.policy.snapshot,
    rt.serviceTokenUsage,
    rt.clock,
    call.authorization,
  );
  if (!auth.ok) return { ok: false, answer: refusalAnswer(auth.refusal) };
  if (!call.contentType || !JSON_TYPE.test(call.contentType)) {
    return {
      ok: false,
      answer: problemAnswer(415, "Unsupported media type", {
        detail: "Send the body as Content-Type: application/json.",
      }),
    };
  }
  const body = await call.read(maxBytes);
  if (!body.ok) return { ok: false, answer: tooLargeAnswer(maxBytes) };
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    return { ok: false, answer: invalidAnswer({ "": ["Body must be valid JSON"] }) };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { ok: false, answer: invalidAnswer(fieldErrorsOf(parsed.error)) };
  return { ok: true, token: auth.token, data: parsed.data };
}

/** scopeRefusal is the 403 for a token that may not make these decisions, or null. */
function scopeRefusal(token: ServiceTokenPolicy, requests: DecisionRequest[]): PlaneAnswer | null {
  if (token.scopes.has("decide")) return null;
  if (token.scopes.has("peek") && requests.every((r) => r.peek)) return null;
  return refusalAnswer(
    missingScope(
      "decide",
      token.scopes.has("peek")
        ? 'This token may only peek ("peek": true); taking tokens needs the decide scope.'
        : "This token may not use the decision API.",
    ),
  );
}

function identityOf(snapshot: PolicySnapshot, request: DecisionRequest): Identity {
  return request.key !== undefined
    ? identify(snapshot, request.key)
    : identifyById(snapshot, request.customerId as number);
}

/**
 * decideOne makes one decision through the app's one decision path and describes it: at once
 * in memory, with a Promise on Redis.
 */
function decideOne(
  rt: DecisionRuntime,
  identity: Identity,
  request: DecisionRequest,
): DecisionResult | Promise<DecisionResult> {
  const { operation, cost, peek } = request;
  if (!identity.ok) return resultOfIdentity(identity.reason, identity.customer, operation, cost);
  const verdict = decide(rt, identity.customer, operation, cost, { peek });
  return verdict instanceof Promise ? verdict.then(resultOfVerdict) : resultOfVerdict(verdict);
}

/** resultsAnswer is the 200 of one decision, or of a batch's decisions in order. */
function resultsAnswer(results: DecisionResult | DecisionResult[]): PlaneAnswer {
  return jsonAnswer(
    200,
    Array.isArray(results)
      ? `{"results":[${results.map(decisionResultJson).join(",")}]}`
      : decisionResultJson(results),
  );
}

/** answerDecision answers POST /api/v1/decisions: 200 with the decision, or the refusal of the call. */
export async function answerDecision(
  rt: DecisionRuntime,
  call: DecisionCall,
): Promise<PlaneAnswer> {
  const accepted = await accept(rt, call, decisionRequestSchema, DECISION_BODY_LIMIT);
  if (!accepted.ok) return accepted.answer;
  const request = accepted.data;
  const refused = scopeRefusal(accepted.token, [request]);
  if (refused) return refused;
  const result = decideOne(rt, identityOf(rt.policy.snapshot, request), request);
  return resultsAnswer(result instanceof Promise ? await result : result);
}

/**
 * answerBatch answers POST /api/v1/decisions/batch: every item is validated first (one bad item
 * refuses the batch, nothing decided), then each is decided on its own, all started at once (so
 * with Redis they go out pipelined) and answered in order. One snapshot serves the whole batch,
 * and a key is hashed once however often it appears.
 */
export async function answerBatch(rt: DecisionRuntime, call: DecisionCall): Promise<PlaneAnswer> {
  const accepted = await accept(rt, call, decisionBatchSchema, BATCH_BODY_LIMIT);
  if (!accepted.ok) return accepted.answer;
  const { decisions } = accepted.data;
  const refused = scopeRefusal(accepted.token, decisions);
  if (refused) return refused;
  const snapshot = rt.policy.snapshot;
  const byKey = new Map<string, Identity>();
  let pending = false;
  const results = decisions.map((request) => {
    let identity: Identity;
    if (request.key === undefined) identity = identityOf(snapshot, request);
    else {
      const known = byKey.get(request.key);
      identity = known ?? identityOf(snapshot, request);
      if (!known) byKey.set(request.key, identity);
    }
    const result = decideOne(rt, identity, request);
    pending ||= result instanceof Promise;
    return result;
  });
  return resultsAnswer(pending ? await Promise.all(results) : (results as DecisionResult[]));
}
