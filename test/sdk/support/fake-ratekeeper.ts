import type { Decision, DecisionReason, FetchLike } from "@/sdk/src/index";

/**
 * FakeTimeouts makes the client's timeout signals on a fake clock: a signal aborts, with a
 * TimeoutError like AbortSignal.timeout's, when `advance` moves time past its deadline. No real
 * timer is involved.
 */
export class FakeTimeouts {
  private nowMs = 0;
  private pending: { deadline: number; controller: AbortController }[] = [];
  /** requested lists the timeouts (ms) the client asked for, in order. */
  readonly requested: number[] = [];

  /** abortAfter is the client's `abortAfter` option. */
  readonly abortAfter = (ms: number): AbortSignal => {
    const controller = new AbortController();
    this.requested.push(ms);
    this.pending.push({ deadline: this.nowMs + ms, controller });
    return controller.signal;
  };

  /** advance moves time forward by `ms` and aborts every signal now past its deadline. */
  advance(ms: number): void {
    this.nowMs += ms;
    const due = this.pending.filter((p) => p.deadline <= this.nowMs);
    this.pending = this.pending.filter((p) => p.deadline > this.nowMs);
    for (const { controller } of due) {
      controller.abort(
        new DOMException("The operation was aborted due to timeout", "TimeoutError"),
      );
    }
  }
}

/** FakeCall is one request the client sent. */
export interface FakeCall {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
  signal: AbortSignal | undefined;
}

/** Responder answers a call: a Response, or a promise of one (which may never settle). */
export type Responder = (call: FakeCall) => Response | Promise<Response>;

/**
 * FakeFetch is a fetch for the client that records each call and answers with `responder`
 * (replaceable at any time). Like the platform's fetch, it rejects with the signal's reason when
 * the signal aborts before the answer.
 */
export class FakeFetch {
  readonly calls: FakeCall[] = [];
  constructor(public responder: Responder = () => json(decision())) {}

  /** fetch is the client's `fetch` option. */
  readonly fetch: FetchLike = (input, init) => {
    const call: FakeCall = {
      url: input,
      method: init.method ?? "GET",
      headers: new Headers(init.headers),
      body: typeof init.body === "string" ? JSON.parse(init.body) : init.body,
      signal: init.signal ?? undefined,
    };
    this.calls.push(call);
    const signal = call.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Response>((resolve, reject) => {
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      Promise.resolve()
        .then(() => this.responder(call))
        .then(resolve, reject);
    });
  };

  /** bodies are the JSON bodies sent, in order. */
  bodies(): unknown[] {
    return this.calls.map((c) => c.body);
  }
}

/** never is a promise that never settles: an answer that does not come. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => {});
}

/** json answers `body` as JSON with `status`. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

/** QUOTA_EXCEEDED is the RateLimit draft's problem type for a 429. */
export const QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";

const STATUS: Record<DecisionReason, number> = {
  ok: 200,
  rate_limited: 429,
  cost_exceeds_limit: 413,
  store_unavailable: 503,
  unknown_key: 401,
  suspended: 403,
};

/**
 * decision builds a decision as the decision API answers it, for `reason` (ok by default), on a
 * plan with 5 reads per second; `overrides` replace fields.
 */
export function decision(
  reason: DecisionReason = "ok",
  overrides: Partial<Decision> = {},
): Decision {
  const allowed = reason === "ok";
  const known = reason !== "unknown_key";
  const refusedByLimit = reason === "rate_limited" || reason === "cost_exceeds_limit";
  const headers: Record<string, string> = known
    ? {
        "RateLimit-Policy": '"read-5-per-1s";q=5;w=1',
        RateLimit: `"read-5-per-1s";r=${allowed ? 4 : 0};t=1`,
      }
    : {};
  if (reason === "rate_limited" || reason === "store_unavailable") headers["Retry-After"] = "1";
  const status = STATUS[reason];
  return {
    allowed,
    reason,
    status,
    customer: known ? { id: 42, name: "Acme", plan: { id: 2, slug: "pro", name: "Pro" } } : null,
    operation: "read",
    cost: 1,
    remaining: known ? (allowed ? 4 : 0) : null,
    limit: known ? { policy: "read-5-per-1s", count: 5, periodMs: 1000 } : null,
    resetAfterMs: known ? 200 : null,
    retryAfterMs: allowed ? 0 : reason === "cost_exceeds_limit" ? null : 200,
    headers,
    problem: allowed
      ? null
      : reason === "rate_limited"
        ? {
            type: QUOTA_EXCEEDED,
            title: "Too many requests",
            status,
            "violated-policies": ["read-5-per-1s"],
          }
        : {
            type: "about:blank",
            title: refusedByLimit ? "Request exceeds the plan's limit" : `Refused: ${reason}`,
            status,
          },
    ...overrides,
  };
}
