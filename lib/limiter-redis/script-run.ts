import { Cluster } from "ioredis";
import type { Clock } from "@/lib/limiter";
import type { RedisClient } from "./buckets";
import type { ClockOffset, DeadlineWindow } from "./clock-offset";
import type { DeadlineWatch, Watched } from "./deadline-watch";
import { DecideCommand } from "./decide-command";
import { DECIDE, DECIDE_SHA, EXPIRED } from "./script";
import { type OnUnanswered, RedisDeadlineError } from "./unanswered";

/**
 * Flight is a batch of decisions as the ScriptRunner sends it: the script's KEYS and packed
 * argument (whose deadline the runner writes), the deadline on this instance's clock by which the
 * run must start (ms; Infinity: none) and the decisions it holds (shadows aside). It hears its
 * outcome once, `settle` with the reply or `fail` with the error; `charged` counts the decisions
 * of a reply that took tokens, for a reply that comes after the flight failed.
 */
export interface Flight {
  readonly keys: string[];
  readonly args: Buffer;
  readonly deadline: number;
  readonly decisions: number;
  charged(reply: Buffer): number;
  settle(reply: Buffer): void;
  fail(error: unknown): void;
}

/** RunContext is what every ScriptRun of a runner shares: its client, clock, listener and watch. */
export interface RunContext {
  readonly redis: RedisClient;
  readonly scripts: ScriptCalls;
  readonly clock: Clock;
  readonly onUnanswered: OnUnanswered | undefined;
  readonly watch: DeadlineWatch;
}

/** ScriptCalls send the decision script over `keys` with the packed `args`, replying a Buffer. */
export interface ScriptCalls {
  /** evalsha runs it by its SHA (Redis may answer NOSCRIPT). */
  evalsha(keys: string[], args: Buffer): Promise<Buffer>;
  /** eval sends the script itself. */
  eval(keys: string[], args: Buffer): Promise<Buffer>;
}

/**
 * BufferCalls are the Buffer-replying forms of EVALSHA and EVAL that ioredis defines for every
 * command (its typings omit them): they go through its usual command path, auto-pipelining
 * and Cluster routing included.
 */
interface BufferCalls {
  evalshaBuffer(sha: string, numkeys: number, ...keysAndArgs: (string | Buffer)[]): Promise<Buffer>;
  evalBuffer(script: string, numkeys: number, ...keysAndArgs: (string | Buffer)[]): Promise<Buffer>;
}

/**
 * scriptCallsOf sends the script on `redis`: EVALSHA as a DecideCommand on one server, through
 * ioredis's own command on a Cluster (its routing, and the auto-pipelining that shares writes
 * where each decision runs alone); EVAL, the rare retry, through ioredis's own command.
 */
export function scriptCallsOf(redis: RedisClient): ScriptCalls {
  const calls = redis as unknown as BufferCalls;
  return {
    evalsha:
      redis instanceof Cluster
        ? (keys, args) => calls.evalshaBuffer(DECIDE_SHA, keys.length, ...keys, args)
        : (keys, args) =>
            redis.sendCommand(new DecideCommand(redis, keys, args)) as Promise<Buffer>,
    eval: (keys, args) => calls.evalBuffer(DECIDE, keys.length, ...keys, args),
  };
}

/** mayHaveRun tells whether a command that failed with `error` may still have run in Redis. */
function mayHaveRun(error: unknown, written: boolean): boolean {
  if (!written || !(error instanceof Error)) return false;
  // Redis answered with an error (it did not run the script), or the command was never written.
  if (error.name === "ReplyError") return false;
  return !/isn't writeable|enableOfflineQueue/.test(error.message);
}

/**
 * ScriptRun is one run of the decision script in flight: it sends the flight once (twice when
 * Redis does not know the script yet) with its window's deadline written into the argument,
 * learns the clock offset from the reply, and answers the flight by the window's end (its
 * context's DeadlineWatch gives up on it then). A reply that comes after is reported
 * (OnUnanswered), never lost silently.
 */
export class ScriptRun implements Watched {
  /** giveUpAt is when the run stops waiting for its reply, on the context's clock (ms). */
  readonly giveUpAt: number;
  /** answered is set once the flight has its answer: what comes after is only reported. */
  private answered = false;
  /** injected says the argument carries an injected time: the reply then ends with Redis's. */
  private readonly injected: boolean;

  constructor(
    private readonly context: RunContext,
    private readonly flight: Flight,
    window: DeadlineWindow,
    private readonly offset: ClockOffset,
  ) {
    flight.args.writeDoubleBE(window.redisDeadline, 8);
    this.injected = !Number.isNaN(flight.args.readDoubleBE(0));
    this.giveUpAt = window.giveUpAt;
  }

  /** start sends the script and starts waiting for its reply until `giveUpAt`. */
  start(): void {
    this.context.watch.add(this);
    this.attempt(false);
  }

  giveUp(): void {
    if (this.answered) return;
    this.answered = true;
    this.flight.fail(
      new RedisDeadlineError(
        "Redis did not answer the decision in time; its script refuses to run late",
      ),
    );
  }

  private attempt(full: boolean): void {
    const { redis, clock, scripts } = this.context;
    const { keys, args } = this.flight;
    const sentAt = clock.now();
    const written = redis.status === "ready";
    let call: Promise<Buffer>;
    try {
      call = full ? scripts.eval(keys, args) : scripts.evalsha(keys, args);
    } catch (error) {
      // A client that throws instead of rejecting still answers the flight, never a caller's tick.
      this.failed(error, false, true);
      return;
    }
    call.then(
      (reply) => this.replied(reply, sentAt),
      (error: unknown) => this.failed(error, written, full),
    );
  }

  private replied(reply: Buffer, sentAt: number): void {
    const { clock, onUnanswered: report } = this.context;
    const flight = this.flight;
    const expired = reply.length >= 16 && reply.readDoubleBE(8) === EXPIRED;
    const redisMs = reply.readDoubleBE(this.injected ? reply.length - 8 : 0);
    if (flight.keys.length > 0) this.offset.learn(sentAt, clock.now(), redisMs);
    if (this.answered) {
      if (expired) {
        report?.("expired", flight.decisions);
      } else {
        const took = flight.charged(reply);
        if (took > 0) report?.("charged", took);
        if (flight.decisions > took) report?.("not_charged", flight.decisions - took);
      }
      return;
    }
    this.answered = true;
    this.context.watch.forget(this);
    if (expired) {
      flight.fail(
        new RedisDeadlineError("Redis ran the decision past its deadline: it took nothing"),
      );
    } else {
      flight.settle(reply);
    }
  }

  private failed(error: unknown, written: boolean, full: boolean): void {
    const report = this.context.onUnanswered;
    const decisions = this.flight.decisions;
    if (this.answered) {
      if (mayHaveRun(error, written)) report?.("unknown", decisions);
      return;
    }
    if (!full && error instanceof Error && error.message.startsWith("NOSCRIPT")) {
      this.attempt(true);
      return;
    }
    this.answered = true;
    this.context.watch.forget(this);
    if (mayHaveRun(error, written)) report?.("unknown", decisions);
    this.flight.fail(error);
  }
}
