import { Counter, Gauge, Registry } from "prom-client";

/** Metrics are the Prometheus series the app exports at /api/metrics. */
export interface Metrics {
  registry: Registry;
  /** decision counts one protected decision by plan, operation and outcome. */
  decision(plan: string, operation: string, allowed: boolean): void;
  storeErrors: Counter<"store">;
  /** denyCacheHits counts refusals answered from an instance's memory instead of Redis. */
  denyCacheHits: Counter;
}

/**
 * createMetrics builds a private registry; `bucketCount`, `storeUp` and `refusalsRemembered`
 * are read at each scrape (`storeUp` is 1 while the shared store answers, or always with
 * buckets in memory; `refusalsRemembered` is the deny cache's size, 0 without one).
 */
export function createMetrics(
  bucketCount: () => number,
  storeUp: () => boolean = () => true,
  refusalsRemembered: () => number = () => 0,
): Metrics {
  const registry = new Registry();
  const decisions = new Counter({
    name: "ratekeeper_decisions_total",
    help: "Rate-limit decisions on protected API routes.",
    labelNames: ["plan", "operation", "outcome"] as const,
    registers: [registry],
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
    help: "1 while the bucket store answers (the last call to Redis succeeded), else 0.",
    registers: [registry],
    collect() {
      this.set(storeUp() ? 1 : 0);
    },
  });
  const storeErrors = new Counter({
    name: "ratekeeper_store_errors_total",
    help: "Failed calls to the shared bucket store.",
    labelNames: ["store"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "ratekeeper_deny_cache_entries",
    help: "Refusals this instance remembers until their retry-after (the deny cache).",
    registers: [registry],
    collect() {
      this.set(refusalsRemembered());
    },
  });
  const denyCacheHits = new Counter({
    name: "ratekeeper_deny_cache_hits_total",
    help: "Refusals answered from this instance's memory of an earlier Redis refusal, without Redis.",
    registers: [registry],
  });
  // Label lookups hash their values; cache the children so a decision costs one increment.
  const children = new Map<string, { inc(): void }>();
  return {
    registry,
    storeErrors,
    denyCacheHits,
    decision(plan, operation, allowed) {
      const outcome = allowed ? "allowed" : "denied";
      const id = `${plan}\u0000${operation}\u0000${outcome}`;
      let child = children.get(id);
      if (!child) {
        child = decisions.labels(plan, operation, outcome);
        children.set(id, child);
      }
      child.inc();
    },
  };
}
