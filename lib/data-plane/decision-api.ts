import type { z } from "zod";
import type { ServiceTokenRefusals } from "@/lib/auth/service-token-refusals";
import type { ServiceTokenUses } from "@/lib/auth/service-token-uses";
import {
  type HttpAnswer,
  invalidAnswer,
  jsonAnswer,
  problemAnswer,
  refusalAnswer,
  tooLargeAnswer,
} from "@/lib/http/answer";
import { readJsonText } from "@/lib/http/json-text";
import { jsonTypeOf, UTF8_DETAIL } from "@/lib/http/media-type";
import { flatKeysOnce, repeatedKeyPaths } from "@/lib/http/repeated-keys";
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
  type DecisionBatch,
  type DecisionRequest,
  decisionBatchSchema,
  decisionRequestSchema,
  plainDecisionBatch,
  plainDecisionRequest,
} from "@/lib/schemas/decision.schema";
import type { DecisionAnswer } from "@/lib/schemas/decision-answer.schema";
import { isRecord } from "@/lib/schemas/every-error";
import { isClassName, unknownClassMessage } from "@/lib/schemas/operation-class.schema";
import type { FieldErrors } from "@/lib/schemas/problem.schema";
import { decisionResultJson, resultOfIdentity, resultOfVerdict } from "./decision-result";
import { authenticateService, missingScope } from "./service-auth";

/** DECISION_BODY_LIMIT is the largest body of one decision: 64 KiB. */
export const DECISION_BODY_LIMIT = 64 * 1024;
/** BATCH_BODY_LIMIT is the largest body of a batch (1,000 decisions): 1 MiB. */
export const BATCH_BODY_LIMIT = 1024 * 1024;

/** DecisionRuntime is what the decision API needs of the process. */
export interface DecisionRuntime extends DecisionContext {
  policy: PolicyStore;
  serviceTokenUsage: ServiceTokenUses;
  /** serviceTokenRefusals counts the calls refused for their token (401, 403), for the metrics and the dashboard. */
  serviceTokenRefusals: ServiceTokenRefusals;
}

/** DecisionKind is which route was called: one decision, or a batch. */
export type DecisionKind = "single" | "batch";

/** bodyLimitOf is the largest body a route reads, in bytes. */
export function bodyLimitOf(kind: DecisionKind): number {
  return kind === "batch" ? BATCH_BODY_LIMIT : DECISION_BODY_LIMIT;
}

/** Gate is the service token of a call that may send its body, or the answer that refuses it. */
export type Gate = { ok: true; token: ServiceTokenPolicy } | { ok: false; answer: HttpAnswer };

/**
 * admitCall checks what a call says before its body is read: its service token (401, counted
 * against the token when a revoked one is presented) and its media type (415 unless
 * application/json, and JSON in a charset other than UTF-8 too). Nothing here takes a token from
 * any bucket.
 */
export function admitCall(
  rt: DecisionRuntime,
  authorization: string | undefined,
  contentType: string | undefined,
): Gate {
  const auth = authenticateService(
    rt.policy.snapshot,
    rt.serviceTokenUsage,
    rt.clock,
    authorization,
  );
  if (!auth.ok) {
    rt.serviceTokenRefusals.note(auth.reason, auth.tokenId, rt.clock.now());
    return { ok: false, answer: refusalAnswer(auth.refusal) };
  }
  const type = contentType ? jsonTypeOf(contentType) : "not-json";
  if (type !== "json") {
    return {
      ok: false,
      answer: problemAnswer(415, "Unsupported media type", {
        detail:
          type === "other-charset"
            ? UTF8_DETAIL
            : "Send the body as Content-Type: application/json.",
      }),
    };
  }
  return auth;
}

/** Parsed is a body read: its data, or its field errors and the JSON value (undefined if none). */
type Parsed<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors; value: unknown };

/** parse reads a body's text as JSON through the one body reader: the value, or its errors. */
function parse<S extends z.ZodType>(text: string, schema: S, value: unknown): Parsed<z.infer<S>> {
  const read = readJsonText(text, schema);
  return read.ok ? read : { ok: false, errors: read.errors, value };
}

/** jsonValue is the value of a JSON text, or undefined when it is not JSON. */
function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * readSingle reads one decision's body: a plain one (plainDecisionRequest, its keys given once) at
 * once, anything else through the one body reader, which names every error. Both accept the same
 * bodies (tests hold them to it); the first only costs less.
 */
function readSingle(text: string): Parsed<DecisionRequest> {
  const value = jsonValue(text);
  const request = plainDecisionRequest(value);
  if (request && flatKeysOnce(text, value as Record<string, unknown>)) {
    return { ok: true, data: request };
  }
  return parse(text, decisionRequestSchema, value);
}

/** readBatch is readSingle for a batch (its items are nested: the full scan for repeated keys). */
function readBatch(text: string): Parsed<DecisionBatch> {
  const value = jsonValue(text);
  const batch = plainDecisionBatch(value);
  if (batch && repeatedKeyPaths(text) === null) return { ok: true, data: batch };
  return parse(text, decisionBatchSchema, value);
}

/** scopeRefusal is the 403 for a token that may not make these decisions (counted), or null. */
function scopeRefusal(
  rt: DecisionRuntime,
  token: ServiceTokenPolicy,
  requests: DecisionRequest[],
): HttpAnswer | null {
  if (token.scopes.has("decide")) return null;
  if (token.scopes.has("peek") && requests.every((r) => r.peek)) return null;
  rt.serviceTokenRefusals.note("scope", token.id, rt.clock.now());
  return refusalAnswer(
    missingScope(
      "decide",
      token.scopes.has("peek")
        ? 'This token may only peek ("peek": true); taking tokens needs the decide scope.'
        : "This token may not use the decision API.",
    ),
  );
}

/**
 * unknownClasses names each request whose operation is a well-formed class name the snapshot
 * does not have (at `operation`, or a batch's `decisions.<index>.operation`), adding to `errors`
 * (made when none are given), or returns them as they were (null when all are known): a Set
 * lookup per request, nothing made unless one is unknown, and nothing decided or taken.
 */
function unknownClasses(
  snapshot: PolicySnapshot,
  requests: readonly unknown[],
  kind: DecisionKind,
  errors: FieldErrors | null = null,
): FieldErrors | null {
  for (let i = 0; i < requests.length; i++) {
    const operation = isRecord(requests[i])
      ? (requests[i] as { operation?: unknown }).operation
      : undefined;
    // A known class first: one Set lookup per valid request, the pattern only for the others.
    if (typeof operation !== "string" || snapshot.classes.has(operation)) continue;
    if (!isClassName(operation)) continue;
    const path = kind === "single" ? "operation" : `decisions.${i}.operation`;
    errors ??= Object.create(null) as FieldErrors;
    errors[path] = [unknownClassMessage(operation, snapshot.classes)];
  }
  return errors;
}

/**
 * invalidBody is the 400 of a body that failed its schema, its unknown classes named beside the
 * other errors (every error of a body at once).
 */
function invalidBody(
  rt: DecisionRuntime,
  kind: DecisionKind,
  failed: { errors: FieldErrors; value: unknown },
): HttpAnswer {
  const { value } = failed;
  const items =
    kind === "single"
      ? [value]
      : isRecord(value) && Array.isArray(value.decisions)
        ? value.decisions
        : [];
  return invalidAnswer(
    unknownClasses(rt.policy.snapshot, items, kind, failed.errors) ?? failed.errors,
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
): DecisionAnswer | Promise<DecisionAnswer> {
  const { operation, cost, peek } = request;
  if (!identity.ok) {
    const by = request.key === undefined ? "id" : "key";
    return resultOfIdentity(identity.reason, identity.customer, operation, cost, by);
  }
  const verdict = decide(rt, identity.customer, operation, cost, { peek });
  return verdict instanceof Promise ? verdict.then(resultOfVerdict) : resultOfVerdict(verdict);
}

function singleAnswer(result: DecisionAnswer): HttpAnswer {
  return jsonAnswer(200, decisionResultJson(result));
}

function batchAnswer(results: DecisionAnswer[]): HttpAnswer {
  return jsonAnswer(200, `{"results":[${results.map(decisionResultJson).join(",")}]}`);
}

/**
 * answerBody answers an admitted call from its body's text: 400 for bad JSON, a key given twice
 * or bad fields (all of them at once), or an operation class the policy does not have, 403 for a token that may not, else 200 with the decision
 * (or a batch's, in order). Each decision goes through the app's one decision path; in memory the
 * answer comes at once, with Redis as a Promise. A batch is validated whole first (one bad item
 * refuses it, nothing decided), then each item is decided on its own, all started at once (so
 * with Redis they go out pipelined); one snapshot serves the whole batch, and a key is hashed
 * once however often it appears.
 */
export function answerBody(
  rt: DecisionRuntime,
  kind: DecisionKind,
  token: ServiceTokenPolicy,
  text: string,
): HttpAnswer | Promise<HttpAnswer> {
  if (kind === "single") {
    const parsed = readSingle(text);
    if (!parsed.ok) return invalidBody(rt, kind, parsed);
    const snapshot = rt.policy.snapshot;
    if (!snapshot.classes.has(parsed.data.operation)) {
      return invalidAnswer(unknownClasses(snapshot, [parsed.data], kind) as FieldErrors);
    }
    const refused = scopeRefusal(rt, token, [parsed.data]);
    if (refused) return refused;
    const result = decideOne(rt, identityOf(snapshot, parsed.data), parsed.data);
    return result instanceof Promise ? result.then(singleAnswer) : singleAnswer(result);
  }
  const parsed = readBatch(text);
  if (!parsed.ok) return invalidBody(rt, kind, parsed);
  const { decisions } = parsed.data;
  const snapshot = rt.policy.snapshot;
  const unknown = unknownClasses(snapshot, decisions, kind);
  if (unknown) return invalidAnswer(unknown);
  const refused = scopeRefusal(rt, token, decisions);
  if (refused) return refused;
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
  return pending
    ? Promise.all(results).then(batchAnswer)
    : batchAnswer(results as DecisionAnswer[]);
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

/**
 * answerCall answers a whole call to the decision API, in order: 401, 415, 413 (over the
 * route's body limit), then `answerBody`. The data plane runs the same steps without a Promise
 * where it can; a Next route handler (the benchmark's) calls this.
 */
export async function answerCall(
  rt: DecisionRuntime,
  kind: DecisionKind,
  call: DecisionCall,
): Promise<HttpAnswer> {
  const gate = admitCall(rt, call.authorization, call.contentType);
  if (!gate.ok) return gate.answer;
  const maxBytes = bodyLimitOf(kind);
  const body = await call.read(maxBytes);
  if (!body.ok) return tooLargeAnswer(maxBytes);
  return answerBody(rt, kind, gate.token, body.text);
}
