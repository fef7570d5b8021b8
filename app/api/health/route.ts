import { json } from "@/lib/http";
import { guarded } from "@/lib/route/guarded";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * GET /api/health answers 200 while the server runs, with where the buckets are: `memory`, or
 * `redis` with `redis: "up" | "down"` (down since the last call to Redis failed). A load balancer
 * can keep an instance in while Redis is down: the failure policy decides what requests get.
 */
export const GET = guarded(() => json({ status: "ok", ...getRuntime().decisions.status() }));
