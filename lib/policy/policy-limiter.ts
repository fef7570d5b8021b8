import { type Clock, Limiter, type LimiterOptions } from "@/lib/limiter";
import type { Operation } from "@/lib/vocabulary";
import { type CustomerPolicy, dryRunLimitsFor, limitsFor } from "./snapshot";

/** RequestInput is what the shared limiter decides on: a customer, an operation, and the time. */
export interface RequestInput {
  customer: CustomerPolicy;
  operation: Operation;
  /** now is the wall-clock time (ms) used to tell whether an override has expired. */
  now: number;
  /** dryRun selects the customer's dry-run limits instead of the enforced ones. */
  dryRun?: boolean;
}

/** customerKey is the key func: one bucket key per customer and operation class. */
export function customerKey(input: RequestInput): string {
  return input.customer.bucketKeys.get(input.operation);
}

/**
 * planLimitFunc is the limit func: the customer's override, or else its plan's limits; the
 * dry-run ones for a dry-run input. Dry-run limits share the key func, so a dry-run limit's
 * buckets are the ones it will have once promoted: it enforces from the state it tried.
 */
export function planLimitFunc(input: RequestInput) {
  return input.dryRun
    ? dryRunLimitsFor(input.customer, input.operation, input.now)
    : limitsFor(input.customer, input.operation, input.now);
}

/** createPolicyLimiter builds the limiter that protects the API, sweeping full buckets each minute. */
export function createPolicyLimiter(
  clock: Clock,
  options: LimiterOptions = {},
): Limiter<RequestInput, string> {
  return new Limiter(customerKey, [planLimitFunc], { clock, sweepIntervalMs: 60_000, ...options });
}
