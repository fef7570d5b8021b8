import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "@/lib/log";

/** PolicySyncOptions configure the broadcast of policy changes between instances. */
export interface PolicySyncOptions {
  /** publisher sends the change notices (a client in normal mode). */
  publisher: Redis;
  /** subscriber receives them: a client of its own, since subscribing takes a connection over. */
  subscriber: Redis;
  /** channel is where notices go: "<prefix>:policy". */
  channel: string;
  /** reload rebuilds this instance's policy snapshot from the shared database. */
  reload: () => void;
  log: Logger;
}

/**
 * PolicySync tells the other instances that the policy changed, over Redis pub/sub. The instance
 * where an operator edits writes SQLite (and the audit log) once, rebuilds its own snapshot, and
 * publishes a notice; every other instance rebuilds its snapshot from the shared database when
 * the notice arrives, within milliseconds.
 *
 * Pub/sub delivers at most once: a notice sent while an instance was cut off from Redis is lost.
 * So an instance also rebuilds its snapshot each time its subscription (re)starts, which covers
 * every edit it may have missed.
 */
export class PolicySync {
  /** id tells this instance's own notices apart. */
  readonly id = randomUUID();
  private readonly options: PolicySyncOptions;
  private subscribedOnce = false;
  /** subscribed settles once the first subscription is in place. */
  readonly subscribed: Promise<void>;

  constructor(options: PolicySyncOptions) {
    this.options = options;
    const { subscriber, channel, log } = options;
    subscriber.on("message", (from: string, sender: string) => {
      if (from !== channel || sender === this.id) return;
      this.reload("a change on another instance");
    });
    subscriber.on("ready", () => {
      // ioredis subscribes again by itself after a reconnect; this catches up on what was lost.
      if (this.subscribedOnce) this.reload("the reconnection to Redis");
    });
    this.subscribed = subscriber.subscribe(channel).then(
      () => {
        // Edits made between this instance's start and its subscription sent notices it missed.
        if (!this.subscribedOnce) this.reload("subscribing to policy changes");
        this.subscribedOnce = true;
      },
      (error: unknown) => log.warn(`Could not subscribe to ${channel}: ${String(error)}`),
    );
  }

  /** publish tells the other instances that the policy changed; failures are logged, not thrown. */
  publish(): void {
    const { publisher, channel, log } = this.options;
    publisher.publish(channel, this.id).catch((error: unknown) => {
      log.warn(
        `Could not announce a policy change on ${channel} (${String(error)}); ` +
          "other instances catch up when they reconnect to Redis.",
      );
    });
  }

  close(): void {
    this.options.subscriber.disconnect();
  }

  private reload(reason: string): void {
    try {
      this.options.reload();
    } catch (error) {
      this.options.log.error(`Could not rebuild the policy after ${reason}`, error);
    }
  }
}
