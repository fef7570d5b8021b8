"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import type { ClassesResponse } from "@/lib/client/class-types";
import { DEFAULT_CLASSES, type Operation } from "@/lib/vocabulary";

/** CLASSES_KEY is the query key of the class list: invalidate it after a class changes. */
export const CLASSES_KEY = ["classes"] as const;

/** useClasses reads the operation classes (read and write first) with their uses. */
export function useClasses() {
  return useQuery({
    queryKey: CLASSES_KEY,
    queryFn: () => api<ClassesResponse>("/classes"),
    staleTime: 30_000,
  });
}

/**
 * useClassNames is the names of the operation classes, read and write first: the defaults until
 * the list has loaded (they always exist).
 */
export function useClassNames(): readonly Operation[] {
  const classes = useClasses();
  return classes.data?.classes.map((c) => c.name) ?? DEFAULT_CLASSES;
}
