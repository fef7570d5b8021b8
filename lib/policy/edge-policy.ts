import { every } from "@/lib/clock";
import { countOf } from "@/lib/format";
import type { Clock } from "@/lib/limiter";
import type { Logger } from "@/lib/log";
import type { PolicyStore } from "./policy-store";
import { type RedisSnapshots, type SnapshotStamp, sameStamp } from "./redis-snapshot";
import { decodePolicyRows, type SnapshotProblem } from "./snapshot-codec";

/**
 * EDGE_CHECK_MS is how often an edge compares its snapshot's stamp with Redis's (one HMGET of
 * two fields), and tries again to load one while it has none: 1 s.
 */
export const EDGE_CHECK_MS = 1_000;

/** EdgePolicyOptions: where the snapshot is, the store to install it in, the clock, the log. */
export interface EdgePolicyOptions {
  snapshots: RedisSnapshots;
  policy: PolicyStore;
  log: Logger;
  /** clock times the checks (its `sleep`: a fake clock's in tests). */
  clock: Clock;
  /** where names the Redis the edge connects to, for the log (credentials left out). */
  where?: string;
  /** checkMs overrides EDGE_CHECK_MS; 0 starts no timer (tests call `check`). */
  checkMs?: number;
}

/**
 * EdgeStatus is where an edge stands with the policy snapshot, each a state the log names once
 * when the edge enters it: `connecting` (its Redis connection is not open yet), `unreachable`
 * (Redis does not answer), `missing` (Redis holds no snapshot), `unusable` (it holds one this
 * edge cannot use: unreadable, or in another version's format) and `current` (the snapshot
 * in force is the one Redis holds).
 */
export type EdgeStatus = "connecting" | "unreachable" | "missing" | "unusable" | "current";

/**
 * EdgePolicy keeps an edge's policy equal to the snapshot the control plane wrote to Redis. It
 * loads it once the Redis connection is open, again on every policy notice and after every
 * reconnection (`check`, which the runtime calls from the notice channel and the connection's
 * `ready`), and compares stamps every EDGE_CHECK_MS of its clock: a notice lost to a cut
 * connection, or one the control plane could not publish, costs at most that long. A check
 * reads the stamp first and the rows only when the stamp differs from the one held (or last
 * refused), so an unchanged policy costs one small read. Checks run one at a time; those asked
 * for meanwhile coalesce into one more. Until the first load the store is not `loaded` and
 * decisions answer 503; afterwards a Redis that fails leaves the policy held in force.
 *
 * The log says what is true, once per change of `status`: connecting, Redis unreachable (and
 * why), no snapshot yet, a snapshot it cannot use (and why), the version and revision loaded;
 * while no policy is held, each line says that decisions answer 503 and until what.
 */
export class EdgePolicy {
  private readonly options: EdgePolicyOptions;
  private held: SnapshotStamp | undefined;
  /** refused is the last write this edge could not use, and what it said of it. */
  private refused: { stamp: SnapshotStamp; key: string; line: string } | undefined;
  private running = false;
  private again = false;
  private stop: (() => void) | undefined;
  private closed = false;
  private current: EdgeStatus = "connecting";
  /** logged is the state the log last named: its status and, for `unusable`, which write. */
  private logged = "";
  private readonly waiters: (() => void)[] = [];

  constructor(options: EdgePolicyOptions) {
    this.options = options;
    const checkMs = options.checkMs ?? EDGE_CHECK_MS;
    if (checkMs > 0) this.stop = every(options.clock, checkMs, () => this.check());
    this.enter("connecting", "connecting", () => this.connecting());
  }

  /** stamp is the stamp of the snapshot in force, once one was loaded. */
  get stamp(): SnapshotStamp | undefined {
    return this.held;
  }

  /** status is where the edge stands with the snapshot (see EdgeStatus). */
  get status(): EdgeStatus {
    return this.current;
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
    this.stop?.();
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
    const { snapshots, policy } = this.options;
    // A closed connection fails every call at once: that is not news about the snapshot. The
    // connection's `ready` asks for a check.
    if (!snapshots.connected) {
      const cause = snapshots.connectionError;
      if (cause === undefined) this.enter("connecting", "connecting", () => this.connecting());
      else this.enter("unreachable", "unreachable", () => this.unreachable(cause));
      return;
    }
    try {
      const stamp = await snapshots.readStamp();
      if (stamp === null) {
        this.enter("missing", "missing", () => this.missing());
        return;
      }
      if (sameStamp(this.held, stamp)) {
        this.enter("current", "current", () => this.followedAgain());
        return;
      }
      // A write this edge could not use stays refused until another replaces it.
      const refused = this.refused;
      if (refused && sameStamp(refused.stamp, stamp)) {
        this.enter("unusable", refused.key, () => refused.line);
        return;
      }
      const stored = await snapshots.read();
      if (stored === null) {
        this.enter("missing", "missing", () => this.missing());
        return;
      }
      const decoded = decodePolicyRows(stored.rows);
      if (!decoded.ok) {
        const line = this.unusable(stored.version, decoded.problem, decoded.reason);
        const key = `unusable ${stored.generation} ${stored.version}`;
        this.refused = {
          stamp: { generation: stored.generation, version: stored.version },
          key,
          line,
        };
        this.enter("unusable", key, () => line);
        return;
      }
      const first = !policy.loaded;
      policy.install({ rows: decoded.rows, revision: stored.revision });
      this.held = { generation: stored.generation, version: stored.version };
      this.refused = undefined;
      if (first) {
        this.enter(
          "current",
          "current",
          () =>
            `Policy snapshot version ${stored.version}, revision ${stored.revision}, loaded from Redis (${countOf(decoded.rows.customers.length, "customer")}): deciding.`,
        );
        for (const resolve of this.waiters.splice(0)) resolve();
      } else this.enter("current", "current", () => this.followedAgain());
    } catch (cause) {
      this.enter("unreachable", "unreachable", () =>
        this.unreachable(cause instanceof Error ? cause.message : String(cause)),
      );
    }
  }

  /**
   * enter moves to `status` and logs `line()` when `key` differs from the state last logged:
   * a problem as a warning (an unusable snapshot as an error), the way back as information.
   */
  private enter(status: EdgeStatus, key: string, line: () => string): void {
    this.current = status;
    if (key === this.logged) return;
    this.logged = key;
    const text = line();
    if (status === "unusable") this.options.log.error(text);
    else if (status === "current" || status === "connecting") this.options.log.info(text);
    else this.options.log.warn(text);
  }

  /** period says how often checks run, for the log. */
  private get period(): string {
    const ms = this.options.checkMs ?? EDGE_CHECK_MS;
    return ms === 1_000 ? "every second" : `every ${ms} ms`;
  }

  /** keeps names the policy in force, when one is: what the edge decides on meanwhile. */
  private keeps(): string | undefined {
    const state = this.options.policy.state;
    if (!state || !this.held) return undefined;
    return `this edge keeps deciding on the policy it has (version ${this.held.version}, revision ${state.revision})`;
  }

  private connecting(): string {
    const keeps = this.keeps();
    const where = this.options.where ? ` at ${this.options.where}` : "";
    return keeps
      ? `Reconnecting to Redis${where}: ${keeps}.`
      : `Connecting to Redis${where} for the policy snapshot; decisions answer 503 until one is loaded.`;
  }

  private unreachable(cause: string): string {
    const keeps = this.keeps();
    return keeps
      ? `Could not read the policy snapshot from Redis (${cause}): ${keeps}, tried again ${this.period}.`
      : `Redis is unreachable (${cause}): decisions answer 503 until it answers and holds the policy snapshot, tried again ${this.period}.`;
  }

  private missing(): string {
    const keeps = this.keeps();
    const key = this.options.snapshots.key;
    return keeps
      ? `Redis no longer holds the policy snapshot (${key}: restarted without persistence, flushed or evicted): ${keeps} until the control plane writes it again.`
      : `Waiting for the policy snapshot: Redis holds none at ${key} (the control plane writes it at start and whenever it finds it missing: is one running on this Redis, with this REDIS_PREFIX?); decisions answer 503 until it is written.`;
  }

  private unusable(version: number, problem: SnapshotProblem, reason: string): string {
    const keeps = this.keeps();
    const what = `The policy snapshot in Redis (version ${version}) cannot be used: ${reason}.`;
    if (!keeps && problem === "older-format") {
      return `Waiting for the policy snapshot in this version's format: the one in Redis (version ${version}) cannot be used: ${reason}; decisions answer 503 until it is rewritten.`;
    }
    return keeps
      ? `${what} ${keeps[0]?.toUpperCase()}${keeps.slice(1)}.`
      : `${what} Waiting for one this edge can use; decisions answer 503 until then.`;
  }

  private followedAgain(): string {
    const state = this.options.policy.state;
    return `The policy snapshot in Redis can be read again: following version ${this.held?.version}, revision ${state?.revision}.`;
  }
}
