import { type Clock, Limiter, type LimiterOptions } from "@/lib/limiter";
import type { Operation } from "@/lib/vocabulary";
import { type CustomerPolicy, limitsFor } from "./snapshot";

/** RequestInput is what the shared limiter decides on: a customer, an operation, and the time. */
export interface RequestInput {
  customer: CustomerPolicy;
  operation: Operation;
  /** now is the wall-clock time (ms) used to tell whether an override has expired. */
  now: number;
}

/** customerKey is the key func: one bucket key per customer and operation. */
export function customerKey(input: RequestInput): string {
  return input.customer.bucketKeys[input.operation];
}

/** planLimitFunc is the limit func: the customer's override, or else its plan's limits. */
export function planLimitFunc(input: RequestInput) {
  return limitsFor(input.customer, input.operation, input.now);
}

/** createPolicyLimiter builds the limiter that protects the API, sweeping full buckets each minute. */
export function createPolicyLimiter(
  clock: Clock,
  options: LimiterOptions = {},
): Limiter<RequestInput, string> {
  return new Limiter(customerKey, [planLimitFunc], { clock, sweepIntervalMs: 60_000, ...options });
}
