import { countOf } from "@/lib/format";
import { DAY_MS as DAY, HOUR_MS as HOUR, MINUTE_MS as MINUTE } from "@/lib/limiter";
import { formatDate } from "@/lib/time-format";

/**
 * describeLastUse words when a token was last used, relative to `now` (both ms since the
 * epoch): "Never", "Just now" (under a minute), minutes, hours or days ago; past a week, the date.
 * Last uses are written about once a minute, so nothing finer is promised.
 */
export function describeLastUse(lastUsedAt: number | null, now: number): string {
  if (lastUsedAt === null) return "Never";
  const ago = Math.max(0, now - lastUsedAt);
  if (ago < MINUTE) return "Just now";
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 7 * DAY) {
    const days = Math.floor(ago / DAY);
    return `${countOf(days, "day")} ago`;
  }
  return formatDate(lastUsedAt);
}
