import { countOf } from "@/lib/format";
import type { Logger } from "@/lib/log";
import type { PolicyStore } from "./policy-store";
import { type RedisSnapshots, type SnapshotStamp, sameStamp } from "./redis-snapshot";
import { decodePolicyRows } from "./snapshot-codec";

/**
 * EDGE_CHECK_MS is how often an edge compares its snapshot's stamp with Redis's (one HMGET of
 * two fields), and tries again to load one while it has none: 1 s.
 */
export const EDGE_CHECK_MS = 1_000;

/** EdgePolicyOptions: where the snapshot is, the store to install it in, the log. */
export interface EdgePolicyOptions {
  snapshots: RedisSnapshots;
  policy: PolicyStore;
  log: Logger;
  /** checkMs overrides EDGE_CHECK_MS; 0 starts no timer (tests call `check`). */
  checkMs?: number;
}

/**
 * EdgePolicy keeps an edge's policy equal to the snapshot the control plane wrote to Redis. It
 * loads it at start, again on every policy notice and after every reconnection (`check`, which
 * the runtime calls from the notice channel), and compares stamps every EDGE_CHECK_MS: a notice
 * lost to a cut connection, or one the control plane could not publish, costs at most that
 * long. A check reads the stamp first and the rows only when the stamp differs from the one
 * held, so an unchanged policy costs one small read. Checks run one at a time; those asked for
 * meanwhile coalesce into one more. Until the first load the store is not `loaded` and
 * decisions answer 503; afterwards a Redis that fails leaves the policy held in force.
 */
export class EdgePolicy {
  private readonly options: EdgePolicyOptions;
  private held: SnapshotStamp | undefined;
  private running = false;
  private again = false;
  private failing = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private readonly waiters: (() => void)[] = [];

  constructor(options: EdgePolicyOptions) {
    this.options = options;
    const checkMs = options.checkMs ?? EDGE_CHECK_MS;
    if (checkMs > 0) {
      this.timer = setInterval(() => this.check(), checkMs);
      this.timer.unref?.();
    }
  }

  /** stamp is the stamp of the snapshot in force, once one was loaded. */
  get stamp(): SnapshotStamp | undefined {
    return this.held;
  }

  /** loaded resolves once a snapshot is in force. */
  loaded(): Promise<void> {
    if (this.options.policy.loaded) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** check loads the snapshot from Redis if its stamp differs from the one held. */
  check(): void {
    if (this.closed) return;
    this.again = true;
    if (!this.running) void this.run();
  }

  /** settled resolves once no check is running or pending (tests). */
  async settled(): Promise<void> {
    while (this.running || this.again) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /** close stops the timer; a check in flight finishes without effect on later calls. */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.again && !this.closed) {
        this.again = false;
        await this.checkOnce();
      }
    } finally {
      this.running = false;
    }
  }

  private async checkOnce(): Promise<void> {
    const { snapshots, policy, log } = this.options;
    try {
      const stamp = await snapshots.readStamp();
      if (stamp === null) {
        this.warnOnce("Redis holds no policy snapshot (has the control plane started?)");
        return;
      }
      this.recovered();
      if (sameStamp(this.held, stamp)) return;
      const stored = await snapshots.read();
      if (stored === null) return;
      const decoded = decodePolicyRows(stored.rows);
      if (!decoded.ok) {
        log.error(
          `The policy snapshot in Redis (version ${stored.version}) cannot be used: ${decoded.reason}. ` +
            (policy.loaded ? "This edge keeps the policy it has." : "Decisions answer 503."),
        );
        // Not held: the next check reads it again, and a rewritten snapshot is picked up.
        return;
      }
      const first = !policy.loaded;
      policy.install({ rows: decoded.rows, revision: stored.revision });
      this.held = { generation: stored.generation, version: stored.version };
      if (first) {
        log.info(
          `Policy snapshot version ${stored.version} loaded from Redis (${countOf(decoded.rows.customers.length, "customer")}): deciding.`,
        );
        for (const resolve of this.waiters.splice(0)) resolve();
      }
    } catch (cause) {
      this.warnOnce(`Could not read the policy snapshot from Redis (${String(cause)})`);
    }
  }

  private warnOnce(what: string): void {
    if (this.failing) return;
    this.failing = true;
    this.options.log.warn(
      `${what}; ${
        this.options.policy.loaded
          ? "this edge keeps deciding on the policy it has"
          : "decisions answer 503 until the control plane's snapshot can be read"
      }, tried again every second.`,
    );
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.options.log.info("The policy snapshot in Redis can be read again: it is followed.");
  }
}
