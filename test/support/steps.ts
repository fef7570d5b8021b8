import { expect } from "vitest";
import type { Details } from "@/lib/limiter";
import type { FakeClock } from "./fake-clock";

/** Step is one line of a step script: at `at` ms, ask for `n` tokens and expect this outcome. */
export interface Step {
  at: number;
  n?: number;
  allowed: boolean;
  remaining: number;
  retryAfterMs?: number;
}

/** Decides is the part of the method set a step script drives. */
interface Decides<I> {
  allowNWithDetails(input: I, n: number): Details;
}

/**
 * runSteps plays a step script against `decider` for one input: at each step it sets the clock,
 * calls `allowNWithDetails` and checks the decision, the tokens remaining and the retry-after
 * (0 unless given). The step index is part of the comparison so a failure names its step.
 */
export function runSteps<I>(decider: Decides<I>, clock: FakeClock, input: I, steps: Step[]): void {
  steps.forEach((step, index) => {
    clock.set(step.at);
    const n = step.n ?? 1;
    const details = decider.allowNWithDetails(input, n);
    expect({ index, ...details }).toEqual({
      index,
      allowed: step.allowed,
      executionTime: step.at,
      tokensRequested: n,
      tokensConsumed: step.allowed ? n : 0,
      tokensRemaining: step.remaining,
      retryAfterMs: step.retryAfterMs ?? 0,
    });
  });
}
