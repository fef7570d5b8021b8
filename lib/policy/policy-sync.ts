import { randomUUID } from "node:crypto";
import type { Cluster, Redis } from "ioredis";
import type { Logger } from "@/lib/log";

/** PolicyNoticesOptions: where this instance's notices go. */
export interface PolicyNoticesOptions {
  /** publisher sends the notices (a client in normal mode; a Cluster client works too). */
  publisher: Redis | Cluster;
  /** channel is where notices go: "<prefix>:policy". */
  channel: string;
  log: Logger;
}

/** PolicySyncOptions configure how this instance hears the other instances' notices. */
export interface PolicySyncOptions {
  /** notices are this instance's own: their id tells its notices apart from the others'. */
  notices: PolicyNotices;
  /** subscriber receives them: a client of its own, since subscribing takes a connection over. */
  subscriber: Redis | Cluster;
  /** refresh rebuilds this instance's policy after another instance changed it. */
  refresh: () => void;
  /** reset drops this instance's own state of a customer another one reset. */
  reset: (customerId: number) => void;
  /**
   * caughtUp runs after each (re)subscription's refresh: notices sent meanwhile were lost, and
   * with them any reset, so what an instance remembers of decisions must go.
   */
  caughtUp: () => void;
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
 * PolicyNotices tell the other instances that the policy changed, or that a customer's buckets
 * were reset, over Redis pub/sub (the sending half of PolicySync). The instance where an operator
 * edits writes SQLite (and the audit log) once, rebuilds its own snapshot, and publishes a
 * notice. A reset notice names the customer.
 */
export class PolicyNotices {
  /** id tells this instance's own notices apart. */
  readonly id = randomUUID();
  private readonly options: PolicyNoticesOptions;

  constructor(options: PolicyNoticesOptions) {
    this.options = options;
  }

  /** channel is where the notices go. */
  get channel(): string {
    return this.options.channel;
  }

  /** publish tells the other instances that the policy changed; failures are logged, not thrown. */
  publish(): void {
    this.send(JSON.stringify({ from: this.id }), "a policy change");
  }

  /** publishReset tells the other instances that a customer's buckets were reset. */
  publishReset(customerId: number): void {
    this.send(JSON.stringify({ from: this.id, reset: customerId }), "a reset");
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
}

/**
 * PolicySync hears the other instances' notices (the receiving half; PolicyNotices send): every
 * instance refreshes its snapshot from the shared database when a change notice arrives, within
 * milliseconds (an edge rereads the snapshot in Redis), and a reset notice makes it drop what it
 * remembers of the customer (refusals, stand-in buckets) without rebuilding anything.
 *
 * Pub/sub delivers at most once: a notice sent while an instance was cut off from Redis is lost.
 * So an instance also refreshes its snapshot each time its subscription (re)starts, which covers
 * every edit it may have missed, and then drops what it remembers of decisions (`caughtUp`).
 */
export class PolicySync {
  private readonly options: PolicySyncOptions;
  private subscribedOnce = false;
  /** subscribed settles once the first subscription is in place. */
  readonly subscribed: Promise<void>;

  constructor(options: PolicySyncOptions) {
    this.options = options;
    const { subscriber, notices, log } = options;
    const channel = notices.channel;
    subscriber.on("message", (from: string, message: string) => {
      if (from !== channel) return;
      const notice = parseNotice(message);
      if (notice.from === notices.id) return;
      if (notice.reset === undefined) this.refresh("a change on another instance");
      else this.options.reset(notice.reset);
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

  close(): void {
    this.options.subscriber.disconnect();
  }

  private catchUp(reason: string): void {
    this.refresh(reason);
    this.options.caughtUp();
  }

  private refresh(reason: string): void {
    try {
      this.options.refresh();
    } catch (error) {
      this.options.log.error(`Could not rebuild the policy after ${reason}`, error);
    }
  }
}
