import type { Clock } from "@/lib/limiter";
import type { Logger } from "@/lib/log";
import type { PolicyState } from "./policy-store";
import type { RedisSnapshots, SnapshotStamp } from "./redis-snapshot";
import { encodePolicyRows } from "./snapshot-codec";

/** SNAPSHOT_RETRY_MS is how long the control plane waits to write again after a failed write. */
export const SNAPSHOT_RETRY_MS = 1_000;

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
 */
export class SnapshotWriter {
  private readonly options: SnapshotWriterOptions;
  private running = false;
  private again = false;
  private forced = false;
  private failing = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  /** stamp is the stamp of this instance's last accepted write, if any. */
  stamp: SnapshotStamp | undefined;

  constructor(options: SnapshotWriterOptions) {
    this.options = options;
  }

  /** request asks for the policy in force to be written (and announced) as soon as possible. */
  request(): void {
    if (this.closed) return;
    this.again = true;
    if (!this.running) void this.run();
  }

  /** idle resolves once no write is running or pending (tests). */
  async idle(): Promise<void> {
    while (this.running || this.again) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /** close stops retrying. */
  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
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
