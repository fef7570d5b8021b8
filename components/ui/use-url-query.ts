"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import type { z } from "zod";

/** UrlQuery is a list's view as its URL holds it: validated values, and the valid raw text. */
export interface UrlQuery<T> {
  /** value is the query parsed by the list's schema (defaults where the URL says nothing). */
  value: T;
  /** search is the URL's valid parameters as a query string ("" or "?q=acme&sort=name"). */
  search: string;
  /** invalid names the parameters the URL gave that the schema refused (and that were dropped). */
  invalid: string[];
  /** set changes parameters (undefined or "" removes one); `history` pushes instead of replacing. */
  set: (changes: Record<string, string | undefined>, history?: "push" | "replace") => void;
}

/**
 * useUrlQuery keeps a list's filters, sort and cursor in the page's URL, so a view can be shared
 * or bookmarked: it reads them with the same zod schema the admin API validates with, drops what
 * that schema refuses, and writes changes back to the URL.
 */
export function useUrlQuery<S extends z.ZodType>(schema: S): UrlQuery<z.infer<S>> {
  const params = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const raw = params.toString();
  const { value, search, invalid } = useMemo(() => {
    const entries = new Map(new URLSearchParams(raw));
    const dropped: string[] = [];
    for (;;) {
      const parsed = schema.safeParse(Object.fromEntries(entries));
      if (parsed.success) {
        const text = new URLSearchParams([...entries]).toString();
        return {
          value: parsed.data as z.infer<S>,
          search: text ? `?${text}` : "",
          invalid: dropped,
        };
      }
      const bad = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? "")));
      const before = entries.size;
      for (const key of bad) {
        if (entries.delete(key)) dropped.push(key);
      }
      if (entries.size === before) {
        // Nothing left to drop (the schema refuses even the defaults): start from nothing.
        entries.clear();
        const fallback = schema.safeParse({});
        return { value: fallback.data as z.infer<S>, search: "", invalid: dropped };
      }
    }
  }, [raw, schema]);
  const set = useCallback(
    (changes: Record<string, string | undefined>, history: "push" | "replace" = "replace") => {
      const next = new URLSearchParams(raw);
      for (const [key, v] of Object.entries(changes)) {
        if (v === undefined || v === "") next.delete(key);
        else next.set(key, v);
      }
      const text = next.toString();
      const url = text ? `${pathname}?${text}` : pathname;
      if (history === "push") router.push(url, { scroll: false });
      else router.replace(url, { scroll: false });
    },
    [raw, pathname, router],
  );
  return { value, search, invalid, set };
}
