"use client";

import { formatCount } from "@/components/charts/number-format";

/**
 * UnknownTokenRefusals says how many decision calls this instance refused in the last hour for
 * a token no row above can be named for (unknown, or none sent): a service somewhere is
 * misconfigured when it is not 0.
 */
export function UnknownTokenRefusals({ count }: { count: number }) {
  if (count === 0) {
    return (
      <p className="muted small" data-testid="unknown-token-refusals">
        No decision call with an unknown or missing token in the last hour.
      </p>
    );
  }
  return (
    <p className="notice error" role="status" data-testid="unknown-token-refusals">
      <strong>
        {formatCount(count)} decision {count === 1 ? "call" : "calls"} with an unknown or missing
        token
      </strong>{" "}
      refused (401) in the last hour. A service is calling with a token Ratekeeper does not know
      (mistyped, or from another install): check its configuration.
    </p>
  );
}
