import { randomUUID } from "node:crypto";
import type { Cluster, Redis } from "ioredis";
import type { Logger } from "@/lib/log";

/** PolicySyncOptions configure the broadcast of policy changes between instances. */
export interface PolicySyncOptions {
  /** publisher sends the change notices (a client in normal mode; a Cluster client works too). */
  publisher: Redis | Cluster;
  /** subscriber receives them: a client of its own, since subscribing takes a connection over. */
  subscriber: Redis | Cluster;
  /** channel is where notices go: "<prefix>:policy". */
  channel: string;
  /** reload rebuilds this instance's policy snapshot from the shared database. */
  reload: () => void;
  /** reset, when set, drops this instance's own state of a customer another one reset. */
  reset?: (customerId: number) => void;
  /**
   * caughtUp, when set, runs after each (re)subscription's reload: notices sent meanwhile were
   * lost, and with them any reset, so what an instance remembers of decisions must go.
   */
  caughtUp?: () => void;
  log: Logger;
}

/**
 * Notice is a message on the channel: who sent it, and a customer whose buckets were reset
 * (without one, the policy changed). Instances of earlier versions sent their id alone; that
 * still reads as a policy change.
 */
interface Notice {
  from: string;
  reset?: number;
}

function parseNotice(message: string): Notice {
  if (message.startsWith("{")) {
    try {
      const parsed = JSON.parse(message) as { from?: unknown; reset?: unknown };
      if (typeof parsed.from === "string") {
        return Number.isSafeInteger(parsed.reset)
          ? { from: parsed.from, reset: parsed.reset as number }
          : { from: parsed.from };
      }
    } catch {
      // Not a notice of ours: a policy change is the safe reading.
    }
  }
  return { from: message };
}

/**
 * PolicySync tells the other instances that the policy changed, or that a customer's buckets
 * were reset, over Redis pub/sub. The instance where an operator edits writes SQLite (and the
 * audit log) once, rebuilds its own snapshot, and publishes a notice; every other instance
 * rebuilds its snapshot from the shared database when the notice arrives, within
 * milliseconds. A reset notice names the customer, so the others drop what they remember of
 * it (refusals, stand-in buckets) without rebuilding anything.
 *
 * Pub/sub delivers at most once: a notice sent while an instance was cut off from Redis is lost.
 * So an instance also rebuilds its snapshot each time its subscription (re)starts, which covers
 * every edit it may have missed, and then drops what it remembers of decisions (`caughtUp`).
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
    subscriber.on("message", (from: string, message: string) => {
      if (from !== channel) return;
      const notice = parseNotice(message);
      if (notice.from === this.id) return;
      if (notice.reset === undefined) this.reload("a change on another instance");
      else this.options.reset?.(notice.reset);
    });
    subscriber.on("ready", () => {
      // ioredis subscribes again by itself after a reconnect; this catches up on what was lost.
      if (this.subscribedOnce) this.catchUp("the reconnection to Redis");
    });
    this.subscribed = subscriber.subscribe(channel).then(
      () => {
        // Edits made between this instance's start and its subscription sent notices it missed.
        if (!this.subscribedOnce) this.catchUp("subscribing to policy changes");
        this.subscribedOnce = true;
      },
      (error: unknown) => log.warn(`Could not subscribe to ${channel}: ${String(error)}`),
    );
  }

  /** publish tells the other instances that the policy changed; failures are logged, not thrown. */
  publish(): void {
    this.send(JSON.stringify({ from: this.id }), "a policy change");
  }

  /** publishReset tells the other instances that a customer's buckets were reset. */
  publishReset(customerId: number): void {
    this.send(JSON.stringify({ from: this.id, reset: customerId }), "a reset");
  }

  close(): void {
    this.options.subscriber.disconnect();
  }

  private send(message: string, what: string): void {
    const { publisher, channel, log } = this.options;
    publisher.publish(channel, message).catch((error: unknown) => {
      log.warn(
        `Could not announce ${what} on ${channel} (${String(error)}); ` +
          "other instances catch up when they reconnect to Redis.",
      );
    });
  }

  private catchUp(reason: string): void {
    this.reload(reason);
    this.options.caughtUp?.();
  }

  private reload(reason: string): void {
    try {
      this.options.reload();
    } catch (error) {
      this.options.log.error(`Could not rebuild the policy after ${reason}`, error);
    }
  }
}
