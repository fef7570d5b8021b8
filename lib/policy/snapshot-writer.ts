import { every } from "@/lib/clock";
import type { Clock } from "@/lib/limiter";
import type { Logger } from "@/lib/log";
import { POLICY_ROWS_FORMAT } from "@/lib/schemas/policy-rows.schema";
import type { PolicyState } from "./policy-store";
import type { RedisSnapshots, SnapshotHead, SnapshotStamp } from "./redis-snapshot";
import { encodePolicyRows } from "./snapshot-codec";

/** SNAPSHOT_RETRY_MS is how long the control plane waits to write again after a failed write. */
export const SNAPSHOT_RETRY_MS = 1_000;

/**
 * SNAPSHOT_CHECK_MS is how often the control plane checks the snapshot Redis holds (one HMGET of
 * four small fields) and writes its own when that one is missing or older: 1 s.
 */
export const SNAPSHOT_CHECK_MS = 1_000;

/** SnapshotWriterOptions: where to write, what, and whom to tell. */
export interface SnapshotWriterOptions {
  snapshots: RedisSnapshots;
  /** state is the policy the control plane has in force (read from SQLite). */
  state: () => PolicyState | undefined;
  /** refresh rereads the policy from SQLite (after the first, forced, write). */
  refresh: () => void;
  /** publish sends the policy notice: after the write, so an edge that hears it reads the new rows. */
  publish: () => void;
  clock: Clock;
  log: Logger;
  /** retryMs overrides SNAPSHOT_RETRY_MS (tests). */
  retryMs?: number;
  /** checkMs overrides SNAPSHOT_CHECK_MS, in ms of `clock`; 0 starts no check (tests call `verify`). */
  checkMs?: number;
  /**
   * lost hears that a check found no snapshot in Redis: Redis lost its data (FLUSHALL, eviction,
   * a restart without persistence), quota counts too, which the control plane then restores.
   */
  lost: () => void;
}

/**
 * olderThan says whether the snapshot Redis holds is older than the state held here: read at an
 * older revision, or at the same one in an older format. Revisions decide first, so two control
 * planes never take turns rewriting each other's snapshot: the one with the later revision (or
 * the later format) leaves the other nothing to rewrite.
 */
export function olderThan(head: SnapshotHead, held: PolicyState, format: number): boolean {
  return head.revision < held.revision || (head.revision === held.revision && head.format < format);
}

/**
 * SnapshotWriter keeps the policy snapshot in Redis up to date for the edges: the control plane
 * calls `request` whenever its Redis connection becomes ready (at start, and after a
 * reconnection: a Redis restarted without persistence lost the snapshot) and after every
 * committed edit. Writes run one at a time; requests
 * made meanwhile coalesce into one more write of the newest state. Each write goes to Redis
 * before the notice is published, so an edge that hears a notice finds the rows it announces.
 *
 * The first write is forced (this database is the truth), then the policy is reread and written
 * again without force: another control plane on the same database may have committed an edit
 * between the read and the forced write, and the revision check keeps the later of the two.
 * A failed write (Redis unreachable) still publishes the notice, for the other full instances
 * that read SQLite, and is retried every `retryMs` until it succeeds: edges catch up then.
 *
 * Redis can also lose the snapshot with nothing to tell this instance: FLUSHALL, an eviction, a
 * Redis replaced by an empty one behind the same address. So every `checkMs` of its clock the
 * writer checks the snapshot's head (`verify`) and writes its own when Redis holds none, or an
 * older one; an edge waiting for a snapshot hears the notice that follows. A newer one (a later
 * revision: another control plane's edit) makes it reread its database instead, and if that is
 * still older, it says so once and leaves the newer snapshot in place.
 */
export class SnapshotWriter {
  private readonly options: SnapshotWriterOptions;
  private running = false;
  private again = false;
  private forced = false;
  private failing = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly stopChecks: (() => void) | undefined;
  private verifying = false;
  /** reported is what `verify` last said (so each finding is logged once), if anything. */
  private reported = "";
  /** stamp is the stamp of this instance's last accepted write, if any. */
  stamp: SnapshotStamp | undefined;

  constructor(options: SnapshotWriterOptions) {
    this.options = options;
    const checkMs = options.checkMs ?? SNAPSHOT_CHECK_MS;
    if (checkMs > 0) this.stopChecks = every(options.clock, checkMs, () => this.verify());
  }

  /**
   * verify checks the snapshot Redis holds against the policy in force and writes this one when
   * Redis holds none or an older one. It does nothing while a write is running or pending (that
   * write settles it), and nothing when Redis does not answer: the connection's `ready` asks for
   * a write when it is back.
   */
  async verify(): Promise<void> {
    if (this.closed || this.running || this.again || this.verifying) return;
    this.verifying = true;
    try {
      await this.verifyOnce();
    } finally {
      this.verifying = false;
    }
  }

  private async verifyOnce(): Promise<void> {
    const { snapshots, state, refresh } = this.options;
    let held = state();
    if (!held) return;
    let head: SnapshotHead | null;
    try {
      head = await snapshots.readHead();
    } catch {
      return;
    }
    if (this.running || this.again) return;
    if (head === null) {
      this.report(
        "missing",
        `Redis holds no policy snapshot at ${snapshots.key} (restarted without persistence, flushed, or evicted: see docs/redis-durability.md): writing it again for the edges.`,
      );
      this.request();
      this.options.lost();
      return;
    }
    if (olderThan(head, held, POLICY_ROWS_FORMAT)) {
      this.report(
        `older ${head.generation} ${head.version}`,
        `The policy snapshot in Redis (revision ${head.revision}, format ${head.format}) is older than this control plane's (revision ${held.revision}, format ${POLICY_ROWS_FORMAT}): writing this one.`,
      );
      this.request();
      return;
    }
    if (head.revision > held.revision) {
      const newer = `newer ${head.generation} ${head.version}`;
      // Already reread for this write, and reported: rereading the database every check would
      // rebuild the policy each second for as long as the other control plane runs.
      if (this.reported === newer) return;
      // Another control plane's edit, whose notice this one has not heard yet: catch up.
      refresh();
      held = state() ?? held;
      if (head.revision > held.revision) {
        this.report(
          newer,
          `Redis holds a policy snapshot of revision ${head.revision}, later than this database's ${held.revision}: another control plane on another database writes it. It is left in place; run every control plane on one database.`,
          "warn",
        );
        return;
      }
      if (olderThan(head, held, POLICY_ROWS_FORMAT)) this.request();
      return;
    }
    this.reported = "";
  }

  /** report logs `line` once for the finding `key`, until `verify` finds another. */
  private report(key: string, line: string, level: "info" | "warn" = "info"): void {
    if (key === this.reported) return;
    this.reported = key;
    this.options.log[level](line);
  }

  /** request asks for the policy in force to be written (and announced) as soon as possible. */
  request(): void {
    if (this.closed) return;
    this.again = true;
    if (!this.running) void this.run();
  }

  /** idle resolves once no check or write is running or pending (tests). */
  async idle(): Promise<void> {
    while (this.verifying || this.running || this.again)
      await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /** close stops retrying and checking. */
  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.stopChecks?.();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.again && !this.closed) {
        this.again = false;
        await this.writeOnce();
      }
    } finally {
      this.running = false;
    }
  }

  private async writeOnce(): Promise<void> {
    const { snapshots, state, refresh, publish, clock, log } = this.options;
    const force = !this.forced;
    const held = state();
    if (!held) return;
    try {
      const result = await snapshots.write(
        encodePolicyRows(held.rows),
        held.revision,
        clock.now(),
        force,
      );
      if (result.written) this.stamp = result.stamp;
      if (this.failing) {
        this.failing = false;
        log.info("The policy snapshot is in Redis again: edges catch up.");
      }
      if (force) {
        this.forced = true;
        refresh();
        this.again = true;
      }
    } catch (cause) {
      if (!this.failing) {
        this.failing = true;
        log.warn(
          `Could not write the policy snapshot to Redis (${String(cause)}); ` +
            "edges keep the policy they have until it is written, retried every second.",
        );
      }
      clearTimeout(this.retry);
      this.retry = setTimeout(() => this.request(), this.options.retryMs ?? SNAPSHOT_RETRY_MS);
      this.retry.unref?.();
    }
    publish();
  }
}
