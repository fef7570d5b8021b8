"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { RANGE_REFRESH_MS } from "./use-range-now";

/**
 * useRangeData reads one answer of a range view (a series, a table) at `path`, under the query
 * key ["usage", key, path]: asked again every RANGE_REFRESH_MS, the last answer showing while
 * the next one loads.
 */
export function useRangeData<T>(key: string, path: string) {
  return useQuery({
    queryKey: ["usage", key, path],
    queryFn: () => api<T>(path),
    placeholderData: keepPreviousData,
    refetchInterval: RANGE_REFRESH_MS,
  });
}
