import { Counter, Gauge, Registry } from "prom-client";
import { durationClock } from "@/lib/clock";
import { HotHistogram } from "@/lib/hot-histogram";
import type { Clock } from "@/lib/limiter";
import { UNANSWERED_OUTCOMES } from "@/lib/limiter-redis";
import { SERVICE_TOKEN_REFUSALS, type ServiceTokenRefusal } from "@/lib/vocabulary";

/** DECISION_BUCKETS_SECONDS span an in-memory decision (microseconds) to a slow Redis (100 ms). */
const DECISION_BUCKETS_SECONDS = [
  0.000_005, 0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01,
  0.025, 0.05, 0.1, 0.25,
];

/** UsageSink names where a usage flush writes: SQLite directly, or Redis for the fleet. */
export type UsageSink = "sqlite" | "redis";

/** UsageFlushHealth is what the usage flush reports to the scrape, read at each scrape. */
export interface UsageFlushHealth {
  /** lastFlushAgeSeconds is how long ago the last flush succeeded (or the instance started). */
  lastFlushAgeSeconds(): number;
  /** pendingRows is how many rows wait in memory for a flush or a retry. */
  pendingRows(): number;
}

/** BackupHealth is what scheduled backups report to the scrape, read at each scrape. */
export interface BackupHealth {
  /** lastSuccessAgeSeconds is how long ago the newest backup was taken (or the instance started). */
  lastSuccessAgeSeconds(): number;
  /** failures counts the scheduled backups that failed since the instance started. */
  failures(): number;
}

/**
 * UPSTREAM_ERROR_KINDS are how the gateway's upstream can fail: it could not be connected to
 * (refused, no such host, unreachable), did not answer in time or fell silent ("timeout"), cut
 * the connection ("reset"), failed the TLS handshake ("tls"), answered something that is not
 * HTTP ("protocol"), or anything else ("other").
 */
export const UPSTREAM_ERROR_KINDS = [
  "connect",
  "timeout",
  "reset",
  "tls",
  "protocol",
  "other",
] as const;

/** UpstreamErrorKind is one of UPSTREAM_ERROR_KINDS. */
export type UpstreamErrorKind = (typeof UPSTREAM_ERROR_KINDS)[number];

/** Metrics are the Prometheus series the app exports at /api/metrics. */
export interface Metrics {
  registry: Registry;
  /** decision counts one protected decision by plan, operation and outcome. */
  decision(plan: string, operation: string, allowed: boolean): void;
  /**
   * quotaRefusal counts one protected decision refused by a quota (out of what its period
   * admits), by plan, operation and the quota's calendar period: among the denied decisions, those
   * a bucket's refill would not have let through soon.
   */
  quotaRefusal(plan: string, operation: string, period: string): void;
  /** decisionStarted returns the instant (ms, fractional) a decision's timing starts from. */
  decisionStarted(): number;
  /** decisionTimed observes a decision made by `store` that started at `started`. */
  decisionTimed(store: string, started: number): void;
  /** usageFlushed counts the rows a flush wrote to a sink. */
  usageFlushed(sink: UsageSink, rows: number): void;
  /** usageFlushFailed counts a flush (or a claim) that failed. */
  usageFlushFailed(sink: UsageSink): void;
  /** watchUsage makes the scrape report the usage flush's health. */
  watchUsage(health: UsageFlushHealth): void;
  /**
   * watchBackups makes the scrape report scheduled backups (their series exist only with
   * BACKUP_DIR set): the newest one's age and the failures.
   */
  watchBackups(health: BackupHealth): void;
  /** serviceTokenRefused counts one decision call refused for its service token, by reason. */
  serviceTokenRefused(reason: ServiceTokenRefusal): void;
  /** gatewayUpstreamError counts one failure of the gateway's upstream, by kind. */
  gatewayUpstreamError(kind: UpstreamErrorKind): void;
  /** storeErrors counts the decisions whose call to the shared store failed (probes not included). */
  storeErrors: Counter<"store">;
  /** storeProbeFailures counts the health probes (PINGs while the store fails) that failed. */
  storeProbeFailures: Counter<"store">;
  /** denyCacheHits counts refusals answered from an instance's memory instead of Redis. */
  denyCacheHits: Counter;
  /**
   * unansweredDecisions counts the decisions answered without Redis's reply (it came after the
   * deadline's window, or never), by what became of them in Redis (UnansweredOutcome).
   */
  unansweredDecisions: Counter<"outcome">;
}

/**
 * createMetrics builds a private registry; `bucketCount`, `storeUp` and `refusalsRemembered`
 * are read at each scrape (`storeUp` is 1 while the shared store answers, 0 before it first
 * answered and while it fails, always 1 with buckets in memory; `refusalsRemembered` is the deny
 * cache's size, 0 without one). `timer` times decisions (the monotonic clock by default).
 */
export function createMetrics(
  bucketCount: () => number,
  storeUp: () => boolean = () => true,
  refusalsRemembered: () => number = () => 0,
  timer: Clock = durationClock,
): Metrics {
  const registry = new Registry();
  // Decisions are counted in plain numbers, by plan then operation, and handed to the counter
  // when a scrape reads it: prom-client hashes a counter's labels on every increment, and a
  // decision here allocates nothing once its plan and operation have been seen.
  const decisionCounts = new Map<string, Map<string, { allowed: number; denied: number }>>();
  new Counter({
    name: "ratekeeper_decisions_total",
    help: "Rate-limit decisions on protected API routes.",
    labelNames: ["plan", "operation", "outcome"] as const,
    registers: [registry],
    collect() {
      for (const [plan, byOperation] of decisionCounts) {
        for (const [operation, counted] of byOperation) {
          if (counted.allowed > 0) this.labels(plan, operation, "allowed").inc(counted.allowed);
          if (counted.denied > 0) this.labels(plan, operation, "denied").inc(counted.denied);
          counted.allowed = 0;
          counted.denied = 0;
        }
      }
    },
  });
  new Gauge({
    name: "ratekeeper_buckets",
    help: "Buckets held in this instance's memory (with Redis: by the stand-in limiter).",
    registers: [registry],
    collect() {
      this.set(bucketCount());
    },
  });
  new Gauge({
    name: "ratekeeper_store_up",
    help: "1 while the bucket store answers (Redis answered, and no call to it failed since), else 0 (also before Redis first answered).",
    registers: [registry],
    collect() {
      this.set(storeUp() ? 1 : 0);
    },
  });
  const storeErrors = new Counter({
    name: "ratekeeper_store_errors_total",
    help: "Decisions whose call to the shared bucket store failed (the health probes count apart).",
    labelNames: ["store"] as const,
    registers: [registry],
  });
  const storeProbeFailures = new Counter({
    name: "ratekeeper_store_probe_failures_total",
    help: "Health probes (a PING every 250 ms while the shared bucket store fails) that failed.",
    labelNames: ["store"] as const,
    registers: [registry],
  });
  const duration = new HotHistogram(
    registry,
    "ratekeeper_decision_duration_seconds",
    "Time to decide (the bucket store's call), by where it was decided.",
    "store",
    DECISION_BUCKETS_SECONDS,
  );
  const flushedRows = new Counter({
    name: "ratekeeper_usage_flush_rows_total",
    help: "Usage rollup rows flushed, by sink: SQLite (written), or Redis (pushed for the fleet).",
    labelNames: ["sink"] as const,
    registers: [registry],
  });
  const flushFailures = new Counter({
    name: "ratekeeper_usage_flush_failures_total",
    help: "Usage flushes and claims that failed (their rows are kept and tried again).",
    labelNames: ["sink"] as const,
    registers: [registry],
  });
  let health: UsageFlushHealth | undefined;
  new Gauge({
    name: "ratekeeper_usage_last_flush_age_seconds",
    help: "Seconds since the last successful usage flush (or since start, before the first).",
    registers: [registry],
    collect() {
      this.set(health?.lastFlushAgeSeconds() ?? 0);
    },
  });
  new Gauge({
    name: "ratekeeper_usage_pending_rows",
    help: "Usage rows waiting in this instance's memory for a flush or a retry.",
    registers: [registry],
    collect() {
      this.set(health?.pendingRows() ?? 0);
    },
  });
  new Gauge({
    name: "ratekeeper_deny_cache_entries",
    help: "Refusals this instance remembers until their retry-after (the deny cache).",
    registers: [registry],
    collect() {
      this.set(refusalsRemembered());
    },
  });
  // Counted in plain numbers and handed over at the scrape, like decisions: a misconfigured
  // service can send thousands of refused calls a second.
  const tokenRefusals = new Map<ServiceTokenRefusal, number>();
  new Counter({
    name: "ratekeeper_service_token_refusals_total",
    help: "Decision calls refused for their service token: missing, unknown, revoked (401), or lacking the scope (403).",
    labelNames: ["reason"] as const,
    registers: [registry],
    collect() {
      for (const reason of SERVICE_TOKEN_REFUSALS) {
        // inc(0) too: every reason's series exists from the start, so a rate over it is defined.
        this.labels(reason).inc(tokenRefusals.get(reason) ?? 0);
        tokenRefusals.set(reason, 0);
      }
    },
  });
  const quotaRefusals = new Counter({
    name: "ratekeeper_quota_refusals_total",
    help: "Protected decisions refused by a quota (used up for its day, week or month), by plan, operation and period; each is also a denied decision.",
    labelNames: ["plan", "operation", "period"] as const,
    registers: [registry],
  });
  const denyCacheHits = new Counter({
    name: "ratekeeper_deny_cache_hits_total",
    help: "Refusals answered from this instance's memory of an earlier Redis refusal, without Redis.",
    registers: [registry],
  });
  const upstreamErrors = new Counter({
    name: "ratekeeper_gateway_upstream_errors_total",
    help: "Requests the gateway admitted whose upstream failed, by kind (connect, timeout, reset, tls, protocol, other).",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  // Every kind is exported from the start, at 0: a rate over a series that appears late misses its first failures.
  for (const kind of UPSTREAM_ERROR_KINDS) upstreamErrors.labels(kind).inc(0);
  const unansweredDecisions = new Counter({
    name: "ratekeeper_redis_unanswered_decisions_total",
    help: "Decisions answered without Redis's reply (it came past the deadline, or never), by what became of them in Redis: expired (reached Redis late, took nothing), charged (ran in time, took tokens: its reply was late), not_charged (ran in time, took nothing), unknown (the connection closed: it may have run).",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  for (const outcome of UNANSWERED_OUTCOMES) unansweredDecisions.labels(outcome).inc(0);
  return {
    registry,
    storeErrors,
    storeProbeFailures,
    denyCacheHits,
    unansweredDecisions,
    decision(plan, operation, allowed) {
      let byOperation = decisionCounts.get(plan);
      if (!byOperation) {
        byOperation = new Map();
        decisionCounts.set(plan, byOperation);
      }
      let counted = byOperation.get(operation);
      if (!counted) {
        counted = { allowed: 0, denied: 0 };
        byOperation.set(operation, counted);
      }
      if (allowed) counted.allowed++;
      else counted.denied++;
    },
    quotaRefusal(plan, operation, period) {
      quotaRefusals.labels(plan, operation, period).inc();
    },
    decisionStarted: () => timer.now(),
    decisionTimed(store, started) {
      duration.observe(store, (timer.now() - started) / 1000);
    },
    usageFlushed(sink, rows) {
      flushedRows.labels(sink).inc(rows);
    },
    usageFlushFailed(sink) {
      flushFailures.labels(sink).inc();
    },
    watchUsage(watched) {
      health = watched;
    },
    watchBackups(backups) {
      new Gauge({
        name: "ratekeeper_backup_last_success_age_seconds",
        help: "Seconds since the newest scheduled backup was taken (found in BACKUP_DIR, or since start with none).",
        registers: [registry],
        collect() {
          this.set(backups.lastSuccessAgeSeconds());
        },
      });
      new Counter({
        name: "ratekeeper_backup_failures_total",
        help: "Scheduled backups that failed (each logged as an error and tried again).",
        registers: [registry],
        collect() {
          this.reset();
          this.inc(backups.failures());
        },
      });
    },
    serviceTokenRefused(reason) {
      tokenRefusals.set(reason, (tokenRefusals.get(reason) ?? 0) + 1);
    },
    gatewayUpstreamError(kind) {
      upstreamErrors.labels(kind).inc();
    },
  };
}
