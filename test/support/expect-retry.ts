import { expect } from "vitest";

/**
 * expectRetry checks a reported retry-after against the exact one: never less, and more only by
 * the rounding needed for a clock at `nowMs` advanced by it to reach the token.
 */
export function expectRetry(actual: number, exact: number, nowMs: number): void {
  if (exact === 0 || exact === Number.POSITIVE_INFINITY) {
    expect(actual).toBe(exact);
    return;
  }
  expect(actual).toBeGreaterThanOrEqual(exact);
  expect(actual).toBeLessThanOrEqual(exact + (Math.abs(nowMs) + exact) * 2 ** -50);
}
