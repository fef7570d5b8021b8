import { Cluster, Command } from "ioredis";
import type { Clock } from "@/lib/limiter";
import { sleepWithTimer } from "@/lib/limiter/clock";
import type { RedisClient } from "./buckets";
import {
  ClockOffset,
  type DeadlineWindow,
  deadlineWindow,
  MAX_OFFSET_ERROR_MS,
} from "./clock-offset";
import { DECIDE, DECIDE_SHA, EXPIRED } from "./script";

/**
 * UNANSWERED_OUTCOMES are what can become, in Redis, of a decision answered without its reply
 * (its caller was told Redis did not answer): `expired`, it reached Redis past its deadline and
 * took nothing; `charged`, it ran in time and took its tokens, its reply late; `not_charged`, it
 * ran in time and took nothing (refused, a peek); `unknown`, no reply will come (the connection
 * closed after the command went out): it may have run.
 */
export const UNANSWERED_OUTCOMES = ["expired", "charged", "not_charged", "unknown"] as const;

/** UnansweredOutcome is one of UNANSWERED_OUTCOMES. */
export type UnansweredOutcome = (typeof UNANSWERED_OUTCOMES)[number];

/** OnUnanswered hears how many decisions answered without their reply ended up as `outcome`. */
export type OnUnanswered = (outcome: UnansweredOutcome, decisions: number) => void;

/**
 * RedisDeadlineError is how a decision fails when Redis did not answer it in time, or answered
 * that it came past its deadline: either way the script took nothing by then, or (counted as
 * `charged` or `unknown`) its reply was lost.
 */
export class RedisDeadlineError extends Error {
  override name = "RedisDeadlineError";
}

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
 * ScriptCalls are the Buffer-replying forms of EVALSHA and EVAL that ioredis defines for every
 * command (its typings omit them): they go through its usual command path, auto-pipelining
 * and Cluster routing included.
 */
interface ScriptCalls {
  evalshaBuffer(sha: string, numkeys: number, ...keysAndArgs: (string | Buffer)[]): Promise<Buffer>;
  evalBuffer(script: string, numkeys: number, ...keysAndArgs: (string | Buffer)[]): Promise<Buffer>;
}

/**
 * after calls `fire` `ms` from now on `clock`, and returns what cancels it: a timer for a clock
 * of real time, the clock's own sleep for an injected one (so a test's clock drives it).
 */
function after(clock: Clock, ms: number, fire: () => void): () => void {
  const sleep = clock.sleep;
  if (sleep === undefined || sleep === sleepWithTimer) {
    // One poll phase first: a reply that arrived while the event loop was busy is read before
    // the wait is called over (see timeCommands in lib/redis.ts).
    const timer = setTimeout(() => setImmediate(fire), Math.max(0, ms));
    return () => clearTimeout(timer);
  }
  const abort = new AbortController();
  sleep.call(clock, Math.max(0, ms), abort.signal).then(fire, () => {});
  return () => abort.abort();
}

/** mayHaveRun tells whether a command that failed with `error` may still have run in Redis. */
function mayHaveRun(error: unknown, written: boolean): boolean {
  if (!written || !(error instanceof Error)) return false;
  // Redis answered with an error (it did not run the script), or the command was never written.
  if (error.name === "ReplyError") return false;
  return !/isn't writeable|enableOfflineQueue/.test(error.message);
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

  constructor(
    private readonly redis: RedisClient,
    private readonly clock: Clock,
    private readonly onUnanswered: OnUnanswered | undefined,
  ) {}

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
   * run sends DECIDE with `args` (whose deadline it writes) over `keys`, for a batch of
   * `decisions` that must start running by `localDeadline` (ms on this instance's clock;
   * Infinity: no deadline), and resolves with the reply, or rejects: RedisDeadlineError when the
   * window closed first or Redis refused a late run, else Redis's or the connection's error.
   * `charged` counts the decisions of a reply that took tokens, for a reply that comes too late.
   */
  run(
    keys: string[],
    args: Buffer,
    localDeadline: number,
    decisions: number,
    charged: (reply: Buffer) => number,
  ): Promise<Buffer> {
    const node = this.nodeOf(keys);
    const offset = this.offsetOf(node);
    if (localDeadline === Number.POSITIVE_INFINITY || keys.length === 0) {
      // Without a bucket nothing can be taken: wait no longer than the deadline, refuse nothing.
      const window = { redisDeadline: Number.POSITIVE_INFINITY, giveUpAt: localDeadline };
      return this.send(keys, args, window, offset, decisions, charged);
    }
    // Fresh enough now (the window then covers the drift until the deadline), or compared anew.
    const estimate = offset.estimate(localDeadline);
    const current = offset.estimate(this.clock.now());
    if (estimate && current && current.errorMs <= MAX_OFFSET_ERROR_MS) {
      return this.send(
        keys,
        args,
        deadlineWindow(localDeadline, estimate),
        offset,
        decisions,
        charged,
      );
    }
    return this.compare(node, offset, localDeadline).then(() => {
      const fresh = offset.estimate(localDeadline);
      if (!fresh || !(this.clock.now() < localDeadline)) {
        throw new RedisDeadlineError(NOT_SENT);
      }
      return this.send(
        keys,
        args,
        deadlineWindow(localDeadline, fresh),
        offset,
        decisions,
        charged,
      );
    });
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

  /**
   * send runs the script once (twice when Redis does not know it yet) with the window's
   * deadline, learns the offset from the reply, and settles by the window's end.
   */
  private send(
    keys: string[],
    args: Buffer,
    window: DeadlineWindow,
    offset: ClockOffset,
    decisions: number,
    charged: (reply: Buffer) => number,
  ): Promise<Buffer> {
    args.writeDoubleBE(window.redisDeadline, 8);
    const injected = !Number.isNaN(args.readDoubleBE(0));
    const client = this.redis as unknown as ScriptCalls;
    const clock = this.clock;
    const report = this.onUnanswered;
    return new Promise<Buffer>((resolve, reject) => {
      /** answered is set once the caller has its answer: what comes after is only reported. */
      let answered = false;
      const cancel =
        window.giveUpAt === Number.POSITIVE_INFINITY
          ? () => {}
          : after(clock, window.giveUpAt - clock.now(), () => {
              if (answered) return;
              answered = true;
              reject(
                new RedisDeadlineError(
                  "Redis did not answer the decision in time; its script refuses to run late",
                ),
              );
            });
      const attempt = (full: boolean) => {
        const sentAt = clock.now();
        const written = this.redis.status === "ready";
        const call = full
          ? client.evalBuffer(DECIDE, keys.length, ...keys, args)
          : client.evalshaBuffer(DECIDE_SHA, keys.length, ...keys, args);
        call.then(
          (reply) => {
            const expired = reply.length >= 16 && reply.readDoubleBE(8) === EXPIRED;
            const redisMs = reply.readDoubleBE(injected ? reply.length - 8 : 0);
            if (keys.length > 0) offset.learn(sentAt, clock.now(), redisMs);
            if (answered) {
              if (expired) {
                report?.("expired", decisions);
              } else {
                const took = charged(reply);
                if (took > 0) report?.("charged", took);
                if (decisions > took) report?.("not_charged", decisions - took);
              }
              return;
            }
            answered = true;
            cancel();
            if (expired) {
              reject(
                new RedisDeadlineError("Redis ran the decision past its deadline: it took nothing"),
              );
            } else {
              resolve(reply);
            }
          },
          (error: unknown) => {
            const noScript = error instanceof Error && error.message.startsWith("NOSCRIPT");
            if (answered) {
              if (mayHaveRun(error, written)) report?.("unknown", decisions);
              return;
            }
            if (noScript && !full) {
              attempt(true);
              return;
            }
            answered = true;
            cancel();
            if (mayHaveRun(error, written)) report?.("unknown", decisions);
            reject(error);
          },
        );
      };
      attempt(false);
    });
  }
}
