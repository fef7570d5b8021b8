import type { Db } from "@/db/client";
import { recordServiceTokenUse } from "@/db/queries/service-tokens";
import type { Logger } from "@/lib/log";

/** USAGE_WRITE_INTERVAL_MS is the least time between two writes of one token's last use: 1 minute. */
export const USAGE_WRITE_INTERVAL_MS = 60_000;

/**
 * ServiceTokenUsage keeps each service token's last use in memory, so a decision never writes
 * SQLite: `touch` is a map write. `flush` persists the uses seen since the last write, at most
 * once per USAGE_WRITE_INTERVAL_MS per token (the first use of a token at the next flush); the
 * runtime calls it on a timer and, with `force`, when it closes. Times are ms since the epoch.
 * An edge has no database (`db` undefined): it keeps the uses in memory and writes none.
 */
export class ServiceTokenUsage {
  private readonly seen = new Map<number, number>();
  private readonly written = new Map<number, { at: number; value: number }>();

  constructor(
    private readonly db: Db | undefined,
    private readonly log: Logger,
  ) {}

  /** touch records a use of token `id` at `now`. */
  touch(id: number, now: number): void {
    this.seen.set(id, now);
  }

  /** lastUsed is the last use this process saw of token `id` (ms), if any. */
  lastUsed(id: number): number | undefined {
    return this.seen.get(id);
  }

  /** forget drops what is held for a token (revoked: it will not be used again). */
  forget(id: number): void {
    this.seen.delete(id);
    this.written.delete(id);
  }

  /**
   * flush writes the last uses not yet persisted whose token was last written at least
   * USAGE_WRITE_INTERVAL_MS before `now` (every pending one with `force`), in one transaction,
   * and returns how many it wrote. A failure is logged, never thrown: the uses stay pending.
   */
  flush(now: number, force = false): number {
    const due: [number, number][] = [];
    for (const [id, at] of this.seen) {
      const last = this.written.get(id);
      if (last && last.value >= at) continue;
      if (!force && last && now - last.at < USAGE_WRITE_INTERVAL_MS) continue;
      due.push([id, at]);
    }
    if (due.length === 0 || !this.db) return 0;
    const db = this.db;
    try {
      db.transaction((tx) => {
        for (const [id, at] of due) recordServiceTokenUse(tx, id, at);
      });
    } catch (cause) {
      this.log.error("Could not record service tokens' last use", cause);
      return 0;
    }
    for (const [id, at] of due) this.written.set(id, { at: now, value: at });
    return due.length;
  }
}
