import {
  type ExpressMiddleware,
  expressMiddleware,
  type NodeRequestLike,
} from "./adapters/express.js";
import { type FetchHandler, fetchMiddleware } from "./adapters/fetch.js";
import { type HonoContextLike, type HonoMiddleware, honoMiddleware } from "./adapters/hono.js";
import { RatekeeperError } from "./errors.js";
import type { RateLimitOptions } from "./gate.js";
import { misconfiguredDecision, type OnMisconfigured } from "./misconfigured.js";
import { createReporter, type Logger } from "./reporter.js";
import {
  answerableLocally,
  asDecision,
  MAX_BATCH,
  unknownKeyDecision,
  type WireRequest,
  wireRequest,
} from "./requests.js";
import { type AbortAfter, type FetchLike, postJson, type Transport } from "./transport.js";
import type { DecisionRequest, ServiceTokenInfo } from "./types.js";
import { type DecideResult, type OnUnavailable, unavailableDecision } from "./unavailable.js";
import { type VerifyOptions, verifyToken } from "./verify.js";

/** DEFAULT_TIMEOUT_MS is how long (ms) a decision may take before Ratekeeper counts as unavailable. */
export const DEFAULT_TIMEOUT_MS = 100;

/**
 * DEFAULT_FIRST_CALL_TIMEOUT_MS is how long (ms) the client's first calls may take, before any
 * call has settled: a fresh process's first fetch loads the HTTP client and opens the connection
 * (80 to 110 ms measured for Node 20 to a local server, TLS not included), which would otherwise
 * time out under the 100 ms default and count as an outage.
 */
export const DEFAULT_FIRST_CALL_TIMEOUT_MS = 1_000;

/**
 * RatekeeperOptions configure a client:
 * - `url`: where Ratekeeper runs (http or https), e.g. "https://ratekeeper.internal:3000";
 * - `token`: a service token with the `decide` scope ("rks_…"), created in the dashboard;
 * - `timeoutMs`: the longest a decision may take, in ms (default 100), the whole exchange;
 * - `firstCallTimeoutMs`: the longest the client's first calls may take, until one has settled
 *   (default 1,000 ms, never less than `timeoutMs`): the first call sets up the connection;
 * - `onUnavailable`: while Ratekeeper cannot be asked (a timeout, a network failure, a 5xx, an
 *   answer that is not Ratekeeper's), "open" (default) admits requests, "closed" refuses them
 *   with 503; unless a refusal stands (below);
 * - `onMisconfigured`: once Ratekeeper has refused the client itself (its token: 401 unknown,
 *   revoked or missing, 403 lacking the scope; its URL: 404 or another 4xx), and until it answers
 *   a decision call with 200, "refuse" (default) answers 503 with a problem naming the cause,
 *   "admit" lets requests through unlimited; a timeout or network failure meanwhile does not
 *   end it; both log an error at most every 10 s;
 * - `onError`: hears every failure to ask Ratekeeper (without it, the client logs to `logger`
 *   once when Ratekeeper becomes unreachable and once when it is back);
 * - `fetch`: the fetch to use (default: the platform's `globalThis.fetch`, looked up per call);
 * - `abortAfter`: makes the timeout signal (default `AbortSignal.timeout`), for runtimes or tests
 *   with their own timers;
 * - `logger`: where the client's own lines go (default `console`);
 * - `now`: the clock (ms) the error lines are spaced by (default `Date.now`), for tests.
 */
export interface RatekeeperOptions {
  url: string | URL;
  token: string;
  timeoutMs?: number;
  firstCallTimeoutMs?: number;
  onUnavailable?: OnUnavailable;
  onMisconfigured?: OnMisconfigured;
  onError?: (error: RatekeeperError) => void;
  fetch?: FetchLike;
  abortAfter?: AbortAfter;
  logger?: Logger;
  now?: () => number;
}

/**
 * Ratekeeper is a client of one Ratekeeper server. Its decisions never reject or throw because
 * of Ratekeeper: when it cannot be asked they follow `onUnavailable`, when it refuses the client
 * itself `onMisconfigured`. They do throw (TypeError, RangeError) for a malformed request, which
 * is the application's mistake. `verify()` alone rejects, to stop a service that starts wrong.
 */
export interface Ratekeeper {
  /**
   * decide asks whether a customer may do an operation now, taking `cost` tokens when it may
   * (none with `peek: true`). It resolves with Ratekeeper's decision, with an
   * UnavailableDecision (reason "ratekeeper_unavailable") when Ratekeeper cannot be asked, or
   * with a MisconfiguredDecision (reason "ratekeeper_misconfigured") when it refuses the client.
   */
  decide(request: DecisionRequest): Promise<DecideResult>;
  /**
   * decideBatch decides many requests, each on its own, in order: one call per 1,000 requests.
   * A call that fails answers each of its requests with the same stand-in as `decide`.
   */
  decideBatch(requests: readonly DecisionRequest[]): Promise<DecideResult[]>;
  /** express returns Express 5 middleware that rate-limits every request it sees. */
  express<Req extends NodeRequestLike = NodeRequestLike>(
    options?: RateLimitOptions<Req>,
  ): ExpressMiddleware<Req>;
  /** hono returns Hono middleware that rate-limits every request it sees. */
  hono<C extends HonoContextLike = HonoContextLike>(
    options?: RateLimitOptions<C>,
  ): HonoMiddleware<C>;
  /**
   * withRateLimit wraps a fetch-style handler (a Next route handler, Bun's or Deno's fetch):
   * refused requests never reach it, and its responses get the RateLimit fields.
   */
  withRateLimit<Rest extends unknown[]>(
    handler: FetchHandler<Rest>,
    options?: RateLimitOptions<Request>,
  ): (request: Request, ...rest: Rest) => Promise<Response>;
  /**
   * decisionOf is the decision a middleware made for a request: pass the Express `req`, the
   * Hono context (or its `c.req.raw`), or the fetch Request. Undefined when none was made.
   */
  decisionOf(request: object): DecideResult | undefined;
  /**
   * verify checks the service token at start-up (GET /api/v1/service-token): it resolves with
   * the token's id, name, prefix and scopes when Ratekeeper knows it and it has every scope in
   * `options.scopes` (default `["decide"]`), and rejects with a RatekeeperError otherwise
   * (`unauthorized`: unknown, revoked or lacking a scope; `rejected`: not Ratekeeper's URL;
   * `timeout`, `network`, `http`: Ratekeeper cannot be asked). It waits 5 s by default. A
   * misconfiguration it finds stands, as a refused decision call's does; and its call warms the
   * connection, so the first decisions pay no set-up.
   */
  verify(options?: VerifyOptions): Promise<ServiceTokenInfo>;
}

function baseUrlOf(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new TypeError(`url must be an absolute http(s) URL, got ${String(url)}`, { cause });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`url must be an http(s) URL, got ${parsed.protocol}`);
  }
  parsed.search = "";
  parsed.hash = "";
  if (!parsed.pathname.endsWith("/")) parsed.pathname += "/";
  return parsed.href;
}

function milliseconds(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number of milliseconds`);
  }
  return value;
}

function transportOf(options: RatekeeperOptions): Transport {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("createRatekeeper needs options: { url, token }");
  }
  // A token with whitespace inside could never be sent as one Bearer token.
  if (typeof options.token !== "string" || !/^\S+$/.test(options.token.trim())) {
    throw new TypeError("token must be a service token (rks_…)");
  }
  const timeoutMs = milliseconds("timeoutMs", options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const firstCallTimeoutMs = milliseconds(
    "firstCallTimeoutMs",
    options.firstCallTimeoutMs ?? DEFAULT_FIRST_CALL_TIMEOUT_MS,
  );
  return {
    baseUrl: baseUrlOf(options.url),
    token: options.token.trim(),
    // Looked up per call, and called as a plain function: some runtimes refuse a detached fetch.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs,
    firstCallTimeoutMs: Math.max(timeoutMs, firstCallTimeoutMs),
    warm: false,
    abortAfter: options.abortAfter ?? ((ms) => AbortSignal.timeout(ms)),
  };
}

/**
 * createRatekeeper returns a client of the Ratekeeper server at `options.url`, authenticated by
 * the service token `options.token`. It throws a TypeError or RangeError for bad options.
 */
export function createRatekeeper(options: RatekeeperOptions): Ratekeeper {
  const transport = transportOf(options);
  const onUnavailable = options.onUnavailable ?? "open";
  if (onUnavailable !== "open" && onUnavailable !== "closed") {
    throw new TypeError('onUnavailable must be "open" or "closed"');
  }
  const onMisconfigured = options.onMisconfigured ?? "refuse";
  if (onMisconfigured !== "refuse" && onMisconfigured !== "admit") {
    throw new TypeError('onMisconfigured must be "refuse" or "admit"');
  }
  const reporter = createReporter({
    onUnavailable,
    onMisconfigured,
    onError: options.onError,
    logger: options.logger ?? console,
    now: options.now ?? (() => Date.now()),
  });
  const remembered = new WeakMap<object, DecideResult>();
  const remember = (request: object, decision: DecideResult) => remembered.set(request, decision);

  /**
   * standIn is the decision for `body` when the call failed: misconfigured when Ratekeeper
   * refused the client, or when it did before and has not accepted a decision call since (a
   * timeout or a network failure does not end a misconfiguration: a revoked token stays revoked
   * while Ratekeeper is slow); unavailable otherwise.
   */
  function standIn(body: WireRequest, cause: unknown): DecideResult {
    const error =
      cause instanceof RatekeeperError
        ? cause
        : new RatekeeperError("invalid_response", "Ratekeeper's answer could not be read", {
            cause,
          });
    if (error.misconfigured || reporter.refusal) {
      reporter.misconfigured(error);
      return misconfiguredDecision(onMisconfigured, body, reporter.refusal ?? error);
    }
    reporter.failed(error);
    return unavailableDecision(onUnavailable, body, error);
  }

  async function decide(request: DecisionRequest): Promise<DecideResult> {
    const body = wireRequest(request);
    if (answerableLocally(body)) return unknownKeyDecision(body);
    let answer: unknown;
    try {
      answer = await postJson(transport, "api/v1/decisions", body);
    } catch (error) {
      if (keyRefused(error)) {
        // Ratekeeper reads the body before it checks the token's scope: this answer says the
        // key is wrong, not that the client is accepted.
        reporter.answered();
        return unknownKeyDecision(body);
      }
      return standIn(body, error);
    }
    const decision = asDecision(answer);
    if (!decision) {
      return standIn(
        body,
        new RatekeeperError("invalid_response", "Ratekeeper's answer is not a decision", {
          status: 200,
          body: answer,
        }),
      );
    }
    reporter.accepted();
    return decision;
  }

  async function decideChunk(bodies: WireRequest[]): Promise<DecideResult[]> {
    const results: (DecideResult | undefined)[] = bodies.map((body) =>
      answerableLocally(body) ? unknownKeyDecision(body) : undefined,
    );
    const asked = bodies.filter((_, i) => results[i] === undefined);
    if (asked.length === 0) return results as DecideResult[];
    let answered: DecideResult[];
    try {
      answered = batchDecisions(
        await postJson(transport, "api/v1/decisions/batch", { decisions: asked }),
        asked.length,
      );
      reporter.accepted();
    } catch (error) {
      answered = asked.map((body) => standIn(body, error));
    }
    let next = 0;
    return results.map((result) => result ?? (answered[next++] as DecideResult));
  }

  async function decideBatch(requests: readonly DecisionRequest[]): Promise<DecideResult[]> {
    if (!Array.isArray(requests)) throw new TypeError("decideBatch takes an array of requests");
    const bodies = requests.map(wireRequest);
    const results: DecideResult[] = [];
    // In order, one chunk after the other: a later request for the same customer sees the earlier ones.
    for (let start = 0; start < bodies.length; start += MAX_BATCH) {
      results.push(...(await decideChunk(bodies.slice(start, start + MAX_BATCH))));
    }
    return results;
  }

  return {
    decide,
    decideBatch,
    express: (middlewareOptions = {}) => expressMiddleware(decide, remember, middlewareOptions),
    hono: (middlewareOptions = {}) => honoMiddleware(decide, remember, middlewareOptions),
    withRateLimit: (handler, middlewareOptions = {}) =>
      fetchMiddleware(decide, remember, handler, middlewareOptions),
    decisionOf: (request) => remembered.get(request),
    verify: async (verifyOptions) => {
      try {
        return await verifyToken(transport, verifyOptions);
      } catch (error) {
        // A token verify() found wrong is refused from now on, even if Ratekeeper is slow later.
        if (error instanceof RatekeeperError && error.misconfigured) reporter.verifyRefused(error);
        throw error;
      }
    },
  };
}

/** keyRefused reports whether Ratekeeper refused a request as invalid because of its customer key. */
function keyRefused(error: unknown): boolean {
  if (!(error instanceof RatekeeperError) || error.status !== 400) return false;
  const errors = (error.body as { errors?: unknown } | null | undefined)?.errors;
  if (typeof errors !== "object" || errors === null) return false;
  return Object.keys(errors).some((path) => path === "key" || path.startsWith("key."));
}

/** batchDecisions reads a batch answer: exactly `count` decisions, else a RatekeeperError. */
function batchDecisions(answer: unknown, count: number): DecideResult[] {
  const results = (answer as { results?: unknown } | null)?.results;
  const decisions = Array.isArray(results) ? results.map(asDecision) : [];
  if (decisions.length !== count || decisions.some((d) => d === null)) {
    throw new RatekeeperError(
      "invalid_response",
      `Ratekeeper's batch answer does not hold ${count} decisions`,
      { status: 200, body: answer },
    );
  }
  return decisions as DecideResult[];
}
