// @ratekeeper/client: ask a Ratekeeper server whether a customer may make a request, from any
// runtime with fetch (Node 20+, Bun, Deno, edge functions), with middleware for Express 5, Hono and
// fetch-style handlers.

export type { ExpressMiddleware, NodeRequestLike, NodeResponseLike } from "./adapters/express.js";
export type { FetchHandler } from "./adapters/fetch.js";
export type { HonoContextLike, HonoMiddleware } from "./adapters/hono.js";
export {
  createRatekeeper,
  DEFAULT_TIMEOUT_MS,
  type Ratekeeper,
  type RatekeeperOptions,
} from "./client.js";
export { RatekeeperError, type RatekeeperErrorKind } from "./errors.js";
export {
  bearerKey,
  type CustomerIdentity,
  operationOf,
  type RateLimitOptions,
} from "./gate.js";
export type { MisconfiguredDecision, OnMisconfigured } from "./misconfigured.js";
export { type Logger, MISCONFIGURED_LOG_INTERVAL_MS } from "./reporter.js";
export { COST_RULE, MAX_BATCH, MAX_COST, MAX_KEY_LENGTH } from "./requests.js";
export type { AbortAfter, FetchLike } from "./transport.js";
export {
  type BatchDecisionRequest,
  type BatchDecisionResponse,
  type BindingLimit,
  CLASS_NAME_PATTERN,
  type CustomerRef,
  DECISION_REASONS,
  DEFAULT_CLASSES,
  type Decision,
  type DecisionCustomer,
  type DecisionQuota,
  type DecisionReason,
  type DecisionRequest,
  OPERATIONS,
  type Operation,
  type PlanRef,
  type Problem,
  type QuotaPeriod,
  type RateLimitHeaders,
  SERVICE_TOKEN_SCOPES,
  type ServiceTokenInfo,
  type ServiceTokenScope,
} from "./types.js";
export type { DecideResult, OnUnavailable, UnavailableDecision } from "./unavailable.js";
export { VERIFY_TIMEOUT_MS, type VerifyOptions } from "./verify.js";
