import { countOf } from "@/lib/format";
import type { FieldErrors } from "@/lib/schemas/problem.schema";
import { DAY_MS, floorTo, MINUTE_MS } from "@/lib/usage/time";
import type { Outcome } from "./plans";

/** Range is a resolved time range [fromMs, toMs), in ms since the epoch. */
export interface Range {
  fromMs: number;
  toMs: number;
}

function invalid(errors: FieldErrors): Outcome<never> {
  return { ok: false, status: 400, title: "Invalid request", errors };
}

/**
 * resolveRange fills a query's range: `to` defaults to the end of the current minute (so the
 * decisions of this very minute count), `from` to `defaultSpanMs` before `to`. A reversed or
 * empty range is refused on `to`, one longer than `maxSpanMs` on `from`.
 */
export function resolveRange(
  input: { from?: number; to?: number },
  now: number,
  defaultSpanMs: number,
  maxSpanMs: number,
): Outcome<Range> {
  const toMs = input.to ?? floorTo(now, MINUTE_MS) + MINUTE_MS;
  const fromMs = input.from ?? toMs - defaultSpanMs;
  if (fromMs >= toMs) {
    return invalid({
      [input.to === undefined ? "from" : "to"]: [
        input.to === undefined ? "from must be before the present" : "to must be after from",
      ],
    });
  }
  if (toMs - fromMs > maxSpanMs) {
    return invalid({ from: [`The range may span at most ${countOf(maxSpanMs / DAY_MS, "day")}`] });
  }
  return { ok: true, value: { fromMs, toMs } };
}
