import { healthOf } from "@/lib/data-plane/health";
import { json } from "@/lib/http/response";
import { guarded } from "@/lib/next/guarded";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/** GET /api/health answers whether this instance can decide (see healthOf). */
export const GET = guarded(() => {
  const health = healthOf(getRuntime());
  return json(health.body, { status: health.status });
});
