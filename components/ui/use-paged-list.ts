"use client";

import { keepPreviousData, type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/client/api";
import { type UrlQuery, useUrlQuery } from "./use-url-query";

/** PagedList is a list read a page at a time from the server, its view kept in the URL. */
export interface PagedList<T, R> {
  /** url is the view (filters, sort, cursor) as the URL holds it. */
  url: UrlQuery<T>;
  /** page is the current page's answer; the previous one shows while the next loads. */
  page: UseQueryResult<R>;
  /** refine changes filters or the sort, and starts again from the first page. */
  refine: (changes: Record<string, string | undefined>) => void;
  /** turn follows a pager's cursor, as a new history entry (Back returns to the page before). */
  turn: (cursor: { after?: string; before?: string }) => void;
}

/**
 * usePagedList reads the list at `path` (an admin API collection) with the URL's valid query,
 * under the query key `[...key, search]`, refreshed every `refreshMs` (false: only on changes).
 */
export function usePagedList<S extends z.ZodType, R>({
  schema,
  key,
  path,
  refreshMs,
}: {
  schema: S;
  key: readonly string[];
  path: string;
  refreshMs: number | false;
}): PagedList<z.infer<S>, R> {
  const url = useUrlQuery(schema);
  const page = useQuery({
    queryKey: [...key, url.search],
    queryFn: () => api<R>(`${path}${url.search}`),
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  });
  return {
    url,
    page,
    refine: (changes) => url.set({ ...changes, after: undefined, before: undefined }),
    turn: (cursor) => url.set({ after: cursor.after, before: cursor.before }, "push"),
  };
}
