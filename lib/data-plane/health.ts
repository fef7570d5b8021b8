import type { DataPlaneRuntime } from "@/lib/runtime/data-plane";
import type { HealthAnswer } from "@/lib/schemas/health-answer.schema";

/** Health is what GET /api/health answers: its status code and its JSON body. */
export interface Health {
  status: 200 | 503;
  body: HealthAnswer;
}

/**
 * healthOf says whether this instance can decide. The full app answers 200 while it runs, with
 * where the buckets are (`memory`, or `redis` with `redis: "connecting" | "up" | "down"`:
 * `connecting` until Redis first answered, see REDIS_HEALTHS): a load balancer can keep it in
 * while Redis is down, the failure policy decides what requests get. An edge
 * answers the same once it holds a policy, with `role: "edge"` and the policy's revision (the
 * control plane's audit count it was read at), and 503 `starting` until then: it cannot
 * decide anything yet.
 */
export function healthOf(rt: DataPlaneRuntime): Health {
  const store = rt.decisions.status();
  if (rt.role !== "edge") return { status: 200, body: { status: "ok", ...store } };
  const state = rt.policy.state;
  return {
    status: state ? 200 : 503,
    body: {
      status: state ? "ok" : "starting",
      role: "edge",
      ...store,
      policy: state ? { revision: state.revision } : null,
    },
  };
}
