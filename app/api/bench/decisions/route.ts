import { answerCall } from "@/lib/data-plane/decision-api";
import { notFound, toResponse } from "@/lib/http/response";
import { guarded } from "@/lib/next/guarded";
import { getRuntime } from "@/lib/runtime";

export const dynamic = "force-dynamic";

/**
 * POST /api/bench/decisions is the decision API's answer through a Next route handler, for
 * `npm run bench:decide` only: the same function as POST /api/v1/decisions on the data plane,
 * so the benchmark prices what Next adds to it. It answers 404 unless RATEKEEPER_BENCH=1.
 */
export const POST = guarded(async (request: Request): Promise<Response> => {
  if (process.env.RATEKEEPER_BENCH !== "1") return notFound();
  const answer = await answerCall(getRuntime(), "single", {
    authorization: request.headers.get("authorization") ?? undefined,
    contentType: request.headers.get("content-type") ?? undefined,
    async read(maxBytes) {
      if (Number(request.headers.get("content-length")) > maxBytes) {
        return { ok: false, tooLarge: true };
      }
      const text = await request.text();
      return Buffer.byteLength(text) > maxBytes
        ? { ok: false, tooLarge: true }
        : { ok: true, text };
    },
  });
  return toResponse(answer);
});
