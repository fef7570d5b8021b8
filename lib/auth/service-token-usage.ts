import type { Db } from "@/db/client";
import { recordServiceTokenUse } from "@/db/queries/service-tokens";
import type { Logger } from "@/lib/log";
import { ServiceTokenUses } from "./service-token-uses";

/** USAGE_WRITE_INTERVAL_MS is the least time between two writes of one token's last use: 1 minute. */
export const USAGE_WRITE_INTERVAL_MS = 60_000;

/**
 * ServiceTokenUsage is the control plane's ServiceTokenUses: it also persists them. `flush`
 * writes the uses seen since the last write, at most once per USAGE_WRITE_INTERVAL_MS per token
 * (the first use of a token at the next flush); the runtime calls it on a timer and, with
 * `force`, when it closes. Times are ms since the epoch.
 */
export class ServiceTokenUsage extends ServiceTokenUses {
  private readonly written = new Map<number, { at: number; value: number }>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {
    super();
  }

  /** forget drops what is held for a token (revoked: it will not be used again). */
  override forget(id: number): void {
    super.forget(id);
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
    if (due.length === 0) return 0;
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
