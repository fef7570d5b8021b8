import { countOf } from "@/lib/format";
import type { Clock, Limiter } from "@/lib/limiter";
import { sleepWithTimer } from "@/lib/limiter/clock";
import { DecisionBatcher, type RedisClient, RedisLimiter } from "@/lib/limiter-redis";
import type { Logger } from "@/lib/log";
import type { Metrics } from "@/lib/metrics";
import type { StoreStatus } from "@/lib/schemas/health-answer.schema";
import type { Operation } from "@/lib/vocabulary";
import {
  type Decision,
  type DecisionStore,
  dryRunInput,
  dryRunOutcome,
  evaluateDryRun,
  forgetCustomer,
  hasDryRun,
  unavailable,
} from "./decision-store";
import type { DenyCache } from "./deny-cache";
import { customerKey, planLimitFunc, type RequestInput } from "./policy-limiter";
import { rememberStandIn, seedStandIn } from "./redis-quota-stand-in";
import { bucketKey } from "./snapshot";

/** FailureMode is what an operation does while Redis is unreachable. */
export type FailureMode = "open" | "closed";

/**
 * FailurePolicy maps operation classes to their failure mode; a class it does not name fails
 * closed (as writes do).
 */
export type FailurePolicy = Readonly<Record<Operation, FailureMode>>;

/** DEFAULT_FAILURE_POLICY: reads go on (bounded by the stand-in), writes are refused. */
export const DEFAULT_FAILURE_POLICY: FailurePolicy = { read: "open", write: "closed" };

/** RedisDecisionStoreOptions configure the Redis-backed decisions. */
export interface RedisDecisionStoreOptions {
  /** redis is one Redis server or a Redis Cluster. */
  redis: RedisClient;
  /** prefix starts every bucket key ("rk" by default). */
  prefix?: string;
  /** standIn decides while Redis is unreachable, for operations that fail open. */
  standIn: Limiter<RequestInput, string>;
  failure?: FailurePolicy;
  /** appClock times incidents for the log, and the probes while Redis fails. */
  appClock: Clock;
  /**
   * decisionClock, for tests only: without it the Redis server's clock decides. Deadlines stay
   * real time (the system clock's) either way.
   */
  decisionClock?: Clock;
  /**
   * timeoutMs is how long a decision waits for Redis (200 ms by default): one that has not run
   * in Redis by then never will (its script refuses to run late), and the operation follows the
   * failure policy.
   */
  timeoutMs?: number;
  log: Logger;
  metrics: Metrics;
  /** retryAfterMs is what a fail-closed refusal tells the client to wait (1 s by default). */
  retryAfterMs?: number;
  /**
   * probeIntervalMs: while Redis fails, a PING starts every this long (250 ms by default, on the
   * app's clock, from one PING's start to the next; at once after a PING that took longer) and
   * tells when it answers again; meanwhile decisions take the failure policy at once.
   */
  probeIntervalMs?: number;
  /**
   * denyCache, when set, remembers refusals until their retry-after and answers repeated
   * requests over the limit without Redis (see DenyCache). Without it every decision asks Redis.
   */
  denyCache?: DenyCache;
  /** announceReset tells the other instances that this one reset a customer (its notices). */
  announceReset: (customerId: number) => void;
}

/**
 * RedisDecisionStore decides on buckets in Redis, shared by every instance. When a call to Redis
 * fails (unreachable, or slower than the client's command timeout) the operation follows the
 * failure policy: fail open decides on this instance's in-memory stand-in limiter, so the
 * customer still gets at most its plan's limits per instance (its quotas counting on from the
 * last counts Redis gave this instance: seedStandIn); fail closed refuses. A decision
 * that failed took nothing: its script refuses to run past its deadline, so a command that
 * waited in a socket while Redis hung does nothing when Redis resumes (the remaining case, a
 * reply lost after the script ran in time, counts in
 * `ratekeeper_redis_unanswered_decisions_total`). Each decision whose call failed counts in
 * `ratekeeper_store_errors_total{store="redis"}`; the log says once when an incident starts and
 * once when it ends. During an incident no decision goes to Redis: a PING every
 * `probeIntervalMs` (no customer's decision; a failed one counts in
 * `ratekeeper_store_probe_failures_total`) tells when it answers again, which ends the incident,
 * and decisions return to Redis with no restart.
 *
 * `status` says `connecting` until Redis first answered (a PING when the connection is ready, or
 * a decision), `up` while it answers and `down` during an incident. An incident starts with any
 * failed call, not only a decision's: the connection's errors, and the background calls
 * reported with `noteFailure` (usage pushes and claims, snapshot checks).
 *
 * With a DenyCache, a refusal is remembered until its retry-after and repeated requests for
 * the same customer, operation and cost are refused from memory; `forget` and `invalidate`
 * drop what it remembers, and `announceReset` tells the other instances of a reset.
 */
export class RedisDecisionStore implements DecisionStore {
  private readonly remote: RedisLimiter<RequestInput>;
  private readonly redis: RedisClient;
  private readonly denyCache: DenyCache | undefined;
  private readonly announceReset: (customerId: number) => void;
  private readonly standIn: Limiter<RequestInput, string>;
  private readonly failure: FailurePolicy;
  private readonly log: Logger;
  private readonly metrics: Metrics;
  private readonly retryAfterMs: number;
  private readonly appClock: Clock;
  private readonly probeIntervalMs: number;
  private readonly timeoutMs: number;
  /** incident counts the failed calls since Redis last answered (null: no incident). */
  private incident: Incident | null = null;
  /** reached is set once Redis answered a call: before, the store is `connecting`. */
  private reached = false;
  /** probing is set while the probe loop runs (during an incident). */
  private probing = false;
  /** closing stops the probe loop when the store closes. */
  private readonly closing = new AbortController();

  constructor(options: RedisDecisionStoreOptions) {
    this.redis = options.redis;
    const metrics = options.metrics;
    this.remote = new RedisLimiter(options.redis, customerKey, [planLimitFunc], {
      prefix: options.prefix,
      clock: options.decisionClock,
      timeoutMs: options.timeoutMs ?? 200,
      batcher: new DecisionBatcher(options.redis, {
        onUnanswered: (outcome, decisions) =>
          metrics.unansweredDecisions.labels(outcome).inc(decisions),
      }),
    });
    this.appClock = options.appClock;
    this.standIn = options.standIn;
    this.failure = options.failure ?? DEFAULT_FAILURE_POLICY;
    this.log = options.log;
    this.metrics = options.metrics;
    this.retryAfterMs = options.retryAfterMs ?? 1_000;
    this.probeIntervalMs = options.probeIntervalMs ?? 250;
    this.denyCache = options.denyCache;
    this.announceReset = options.announceReset;
    this.timeoutMs = options.timeoutMs ?? 200;
    // Both series exist from the start, at 0: a rate over a series that appears late misses its
    // first failures.
    this.metrics.storeErrors.labels("redis").inc(0);
    this.metrics.storeProbeFailures.labels("redis").inc(0);
    // A connection that fails starts an incident; one that opens is asked whether Redis answers.
    this.redis.on("error", (error: unknown) =>
      this.failed(error, this.appClock.now(), "connection"),
    );
    this.redis.on("ready", () => void this.check());
  }

  /**
   * noteFailure starts an incident (or counts in the one going on) for a call to Redis that
   * failed outside the decisions: a usage push or claim, a snapshot check. Redis's error replies
   * are answers, not failures: callers report only calls Redis did not answer.
   */
  noteFailure(error: unknown): void {
    this.failed(error, this.appClock.now(), "other");
  }

  async decide(input: RequestInput, n: number): Promise<Decision> {
    const cache = this.denyCache;
    const remembered = cache?.lookup(input, n);
    if (remembered) {
      this.metrics.denyCacheHits.inc();
      return { details: remembered, source: "redis-cache" };
    }
    const epoch = cache?.epoch ?? 0;
    const decided = hasDryRun(input)
      ? await this.attempt(async () => {
          // The dry-run limits ride in the decision's own script run: no round trip of their own.
          const { details, shadow } = await this.remote.allowNWithShadow(
            input,
            n,
            dryRunInput(input),
          );
          return { details, dryRun: shadow ? dryRunOutcome(input, shadow) : undefined };
        }, input.now)
      : await this.attempt(
          async () => ({ details: await this.remote.allowNWithDebug(input, n), dryRun: undefined }),
          input.now,
        );
    if (decided) {
      if (!decided.details.allowed) cache?.remember(input, n, decided.details, epoch);
      return { ...decided, source: "redis" };
    }
    if (this.failure[input.operation] !== "open") {
      return unavailable(input, n, this.retryAfterMs);
    }
    const details = this.standIn.allowNWithDebug(input, n);
    const dryRun = details.allowed ? evaluateDryRun(this.standIn, input, n) : undefined;
    return { details, source: "stand-in", dryRun };
  }

  async peek(input: RequestInput, n = 1): Promise<Decision> {
    const details = await this.attempt(() => this.remote.peekNWithDebug(input, n), input.now);
    if (details) return { details, source: "redis" };
    return { details: this.standIn.peekNWithDebug(input, n), source: "stand-in" };
  }

  /**
   * forget deletes the customer's buckets in Redis and in the stand-in, drops its remembered
   * refusals (after the buckets are gone, so none decided before is kept) and tells the other
   * instances; it throws when Redis does.
   */
  async forget(customerId: number, classes: Iterable<Operation>): Promise<number> {
    const names = [...classes];
    const local = forgetCustomer(this.standIn, customerId, names);
    let remote = 0;
    try {
      for (const operation of names) {
        remote += await this.remote.forgetBuckets(bucketKey(customerId, operation));
      }
    } catch (error) {
      this.failed(error, this.appClock.now(), "other");
      throw error;
    } finally {
      this.denyCache?.forgetCustomers([customerId]);
    }
    this.announceReset(customerId);
    return remote + local;
  }

  invalidate(customerIds: readonly number[] | "all"): void {
    if (customerIds === "all") this.denyCache?.clear();
    else this.denyCache?.forgetCustomers(customerIds);
  }

  forgetLocal(customerId: number, classes: Iterable<Operation>): void {
    const names = [...classes];
    forgetCustomer(this.standIn, customerId, names);
    // A count remembered from before the reset would seed the deleted quota keys again.
    for (const operation of names) this.remote.quotaMemory.forget(bucketKey(customerId, operation));
    this.denyCache?.forgetCustomers([customerId]);
  }

  status(): StoreStatus {
    return { store: "redis", redis: this.incident ? "down" : this.reached ? "up" : "connecting" };
  }

  async ready(): Promise<void> {
    if (this.redis.status !== "ready") {
      await new Promise<void>((resolve) => this.redis.once("ready", () => resolve()));
    }
    // Deadlines need Redis's clock: compared now, the first decisions need no round trip more.
    // Should Redis not answer, the first decision compares again.
    await this.remote.batcher.compareClocks().then(
      () => this.answered(this.appClock.now()),
      () => {},
    );
  }

  async close(): Promise<void> {
    this.closing.abort();
    this.redis.disconnect();
  }

  /**
   * attempt returns Redis's answer, or nothing when the call failed or was skipped: during an
   * incident no call goes to Redis (the probe loop tells when it is back).
   */
  private async attempt<T>(call: () => Promise<T>, now: number): Promise<T | undefined> {
    if (this.incident) return undefined;
    try {
      const details = await call();
      this.answered(now);
      return details;
    } catch (error) {
      this.failed(error, now, "decision");
      return undefined;
    }
  }

  /** check PINGs Redis once: an answer makes the store `up` (or ends an incident). */
  private async check(): Promise<void> {
    try {
      await this.redis.ping();
      this.answered(this.appClock.now());
    } catch (error) {
      this.failed(error, this.appClock.now(), "probe");
    }
  }

  /**
   * probe PINGs Redis while the incident lasts, each PING starting `probeIntervalMs` of the app's
   * clock after the previous one started (the first that long after the incident did); the first
   * answer ends it. A PING is nobody's decision: it takes no tokens however late it runs.
   */
  private async probe(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    const clock = this.appClock;
    const signal = this.closing.signal;
    let started = clock.now();
    try {
      while (this.incident && !signal.aborted) {
        const wait = Math.max(0, this.probeIntervalMs - (clock.now() - started));
        await (clock.sleep ?? sleepWithTimer).call(clock, wait, signal);
        if (!this.incident) break;
        started = clock.now();
        await this.check();
      }
    } catch {
      // The store closed during the wait.
    } finally {
      this.probing = false;
    }
  }

  /**
   * failed counts a failed call by its kind (decisions in ratekeeper_store_errors_total, probes
   * in ratekeeper_store_probe_failures_total) and starts an incident if none is going on.
   */
  private failed(error: unknown, now: number, kind: FailedCall): void {
    if (kind === "decision") this.metrics.storeErrors.labels("redis").inc();
    else if (kind === "probe") this.metrics.storeProbeFailures.labels("redis").inc();
    if (this.incident) {
      this.incident[kind]++;
      return;
    }
    this.incident = { since: now, decision: 0, probe: 0, other: 0, connection: 0 };
    this.incident[kind]++;
    // The stand-in's quotas count on from the last counts Redis gave, not from 0.
    seedStandIn(this.remote.quotaMemory, this.standIn);
    void this.probe();
    this.log.warn(
      `Redis unreachable (${describeFailure(error, this.timeoutMs)}): reads fail ${this.failure.read}, writes fail ${this.failure.write}` +
        ` until it answers again, checked with a PING every ${this.probeIntervalMs} ms; failed decisions count in ratekeeper_store_errors_total.`,
    );
  }

  private answered(now: number): void {
    this.reached = true;
    const incident = this.incident;
    if (!incident) return;
    this.incident = null;
    // Should Redis have lost a quota key meanwhile, it is seeded with the stand-in's count too.
    rememberStandIn(this.standIn, this.remote.quotaMemory, this.remote.prefix);
    const seconds = Math.max(0, Math.round((now - incident.since) / 1000));
    const failures = [
      countOf(incident.decision, "failed decision"),
      countOf(incident.probe, "failed probe"),
    ];
    if (incident.other > 0) failures.push(countOf(incident.other, "other failed call"));
    if (incident.connection > 0) {
      failures.push(countOf(incident.connection, "failed connection attempt"));
    }
    const listed = `${failures.slice(0, -1).join(", ")} and ${failures.at(-1)}`;
    this.log.info(`Redis answers again after ${listed} over ${seconds} s: decisions use it again.`);
  }
}

/**
 * FailedCall is what failed: a decision, a probe's PING, another call (a background one, a
 * reset), or the connection itself.
 */
type FailedCall = "decision" | "probe" | "other" | "connection";

/** Incident is when Redis started failing and how many calls of each kind failed since. */
type Incident = { since: number } & Record<FailedCall, number>;

/**
 * describeFailure says why a call failed in the operator's words: the client's own messages
 * for a closed connection become "not connected", a command timeout says how long it waited.
 */
export function describeFailure(error: unknown, timeoutMs: number): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/Stream isn't writeable|Connection is closed|enableOfflineQueue/i.test(message)) {
    return "not connected";
  }
  if (message === "Command timed out") return `no answer within ${timeoutMs} ms`;
  // The decisions' own errors start with "Redis", which the incident line has said already.
  return message.replace(/^Redis (?=did not)/, "");
}
