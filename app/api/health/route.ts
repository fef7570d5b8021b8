import { healthOf } from "@/lib/data-plane/health";
import { answer } from "@/lib/http/response";
import { guarded } from "@/lib/next/guarded";
import { getRuntime } from "@/lib/runtime";
import { healthAnswerSchema } from "@/lib/schemas/health-answer.schema";

export const dynamic = "force-dynamic";

/** GET /api/health answers whether this instance can decide (see healthOf). */
export const GET = guarded(() => {
  const health = healthOf(getRuntime());
  return answer(healthAnswerSchema, health.body, { status: health.status });
});
