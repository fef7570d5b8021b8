"use client";

import { type RollupRange, rangeQuery, usageSearch } from "./usage-range";
import { useRangeNow } from "./use-range-now";

/**
 * CsvDownload is a link that downloads the range's usage as CSV (the same range as the view,
 * one row per UTC day, customer, plan and operation). The server names the file.
 */
export function CsvDownload({
  range,
  filters = {},
}: {
  range: RollupRange;
  filters?: Record<string, string | number | undefined>;
}) {
  const now = useRangeNow();
  const href = `/api/admin/usage.csv?${usageSearch(rangeQuery(range, now), filters)}`;
  return (
    <a className="btn small" href={href} download>
      Download CSV
    </a>
  );
}
