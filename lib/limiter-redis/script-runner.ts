import { Cluster, Command } from "ioredis";
import type { Clock } from "@/lib/limiter";
import type { RedisClient } from "./buckets";
import {
  ClockOffset,
  type DeadlineWindow,
  deadlineWindow,
  MAX_OFFSET_ERROR_MS,
} from "./clock-offset";
import { after, DeadlineWatch } from "./deadline-watch";
import { DECIDE, DECIDE_SHA } from "./script";
import { type Flight, type RunContext, ScriptRun, scriptCallsOf } from "./script-run";
import { type OnUnanswered, RedisDeadlineError } from "./unanswered";

/** NOT_SENT says why a decision failed when Redis's clock could not be read in time. */
const NOT_SENT =
  "Redis did not answer in time: its clock could not be read, so the decision was not sent";

/**
 * isDecisionCommand tells the decision script's commands (EVALSHA or EVAL of DECIDE), which time
 * themselves by their deadline: a client-wide command timeout must leave them alone, or it would
 * answer before Redis's deadline and leave a late run able to take tokens.
 */
export function isDecisionCommand(command: { name: string; args: unknown[] }): boolean {
  const first = command.args[0];
  return (
    (first === DECIDE_SHA && command.name === "evalsha") ||
    (first === DECIDE && command.name === "eval")
  );
}

/**
 * ScriptRunner runs the decision script with a deadline: it converts a deadline of this
 * instance's clock into each Redis server's clock (a ClockOffset per server, learned from the
 * replies, compared afresh with TIME when none is good enough), waits for the reply until the
 * deadline's window closes, and then answers RedisDeadlineError: any run still to come refuses
 * itself. A reply that comes after that is reported (OnUnanswered), never lost silently.
 */
export class ScriptRunner {
  private readonly offsets = new Map<string, ClockOffset>();
  private readonly comparing = new Map<string, Promise<void>>();
  private readonly redis: RedisClient;
  private readonly clock: Clock;
  /** context is what every run shares, its DeadlineWatch (one timer for all) included. */
  private readonly context: RunContext;

  constructor(redis: RedisClient, clock: Clock, onUnanswered: OnUnanswered | undefined) {
    this.redis = redis;
    this.clock = clock;
    this.context = {
      redis,
      scripts: scriptCallsOf(redis),
      clock,
      onUnanswered,
      watch: new DeadlineWatch(clock),
    };
  }

  /**
   * offsetOf is the clock offset learned for the server at `node` ("host:port" on a Cluster,
   * "" for one server).
   */
  offsetOf(node: string): ClockOffset {
    let offset = this.offsets.get(node);
    if (!offset) {
      offset = new ClockOffset();
      this.offsets.set(node, offset);
    }
    return offset;
  }

  /**
   * run sends DECIDE for `flight` (writing its deadline into the argument): the flight must start
   * running by its deadline (ms on this instance's clock; Infinity: no deadline), and it settles
   * with the reply or fails: RedisDeadlineError when the window closed first or Redis refused a
   * late run, else Redis's or the connection's error.
   */
  run(flight: Flight): void {
    const keys = flight.keys;
    const localDeadline = flight.deadline;
    const node = this.nodeOf(keys);
    const offset = this.offsetOf(node);
    if (localDeadline === Number.POSITIVE_INFINITY || keys.length === 0) {
      // Without a bucket nothing can be taken: wait no longer than the deadline, refuse nothing.
      const window = { redisDeadline: Number.POSITIVE_INFINITY, giveUpAt: localDeadline };
      this.send(flight, window, offset);
      return;
    }
    // Fresh enough now (the window then covers the drift until the deadline), or compared anew.
    const estimate = offset.estimate(localDeadline);
    const current = offset.estimate(this.clock.now());
    if (estimate && current && current.errorMs <= MAX_OFFSET_ERROR_MS) {
      this.send(flight, deadlineWindow(localDeadline, estimate), offset);
      return;
    }
    this.compare(node, offset, localDeadline).then(
      () => {
        const fresh = offset.estimate(localDeadline);
        if (!fresh || !(this.clock.now() < localDeadline)) {
          flight.fail(new RedisDeadlineError(NOT_SENT));
          return;
        }
        this.send(flight, deadlineWindow(localDeadline, fresh), offset);
      },
      (error: unknown) => flight.fail(error),
    );
  }

  /**
   * compareClocks learns the offset of every server (each primary of a Cluster) now, so that
   * the first decisions need no comparison of their own; it rejects when a server does not
   * answer (a decision then compares again first).
   */
  async compareClocks(): Promise<void> {
    const redis = this.redis;
    const nodes =
      redis instanceof Cluster
        ? redis.nodes("master").map((n) => `${n.options.host}:${n.options.port}`)
        : [""];
    await Promise.all(
      nodes.map((node) => this.compare(node, this.offsetOf(node), Number.POSITIVE_INFINITY)),
    );
  }

  /**
   * redisTimeOf estimates the time now (ms since the epoch, whole) on the clock of the server
   * that runs a script over `keys`, from the offset learned of it; the first time, it compares
   * the clocks first (a Promise then).
   */
  redisTimeOf(keys: string[]): number | Promise<number> {
    const node = this.nodeOf(keys);
    const offset = this.offsetOf(node);
    const known = offset.estimate(this.clock.now());
    if (known) return Math.floor(this.clock.now() + known.offsetMs);
    return this.compare(node, offset, Number.POSITIVE_INFINITY).then(() => {
      const now = this.clock.now();
      const estimate = offset.estimate(now);
      if (!estimate) throw new Error("Redis's clock could not be compared with this instance's");
      return Math.floor(now + estimate.offsetMs);
    });
  }

  /** nodeOf names the server that runs a script over `keys`. */
  private nodeOf(keys: string[]): string {
    const redis = this.redis;
    const first = keys[0];
    if (!(redis instanceof Cluster) || first === undefined) return "";
    const slot = new Command("evalsha", [DECIDE_SHA, 1, first]).getSlot();
    return redis.slots[slot]?.[0] ?? "";
  }

  /**
   * compare reads the server's TIME to learn the offset (one comparison per server at a time),
   * and rejects when it has not come by `localDeadline`.
   */
  private compare(node: string, offset: ClockOffset, localDeadline: number): Promise<void> {
    let pending = this.comparing.get(node);
    if (!pending) {
      const sentAt = this.clock.now();
      pending = this.timeOf(node)
        .then((time) => {
          const [seconds, micros] = time as unknown as [string | number, string | number];
          const redisMs = Number(seconds) * 1_000 + Number(micros) / 1_000;
          offset.learn(sentAt, this.clock.now(), redisMs, 0.001);
        })
        .finally(() => this.comparing.delete(node));
      this.comparing.set(node, pending);
    }
    const compared = pending;
    if (localDeadline === Number.POSITIVE_INFINITY) return compared;
    return new Promise<void>((resolve, reject) => {
      const cancel = after(this.clock, localDeadline - this.clock.now(), () =>
        reject(new RedisDeadlineError(NOT_SENT)),
      );
      compared.then(
        () => {
          cancel();
          resolve();
        },
        (error: unknown) => {
          cancel();
          reject(error);
        },
      );
    });
  }

  private timeOf(node: string): Promise<number[]> {
    const redis = this.redis;
    if (!(redis instanceof Cluster)) return redis.time();
    const server = redis
      .nodes("master")
      .find((n) => `${n.options.host}:${n.options.port}` === node);
    return (server ?? redis).time();
  }

  /** send starts a ScriptRun of `flight` in `window`, its reply teaching `offset`. */
  private send(flight: Flight, window: DeadlineWindow, offset: ClockOffset): void {
    new ScriptRun(this.context, flight, window, offset).start();
  }
}
