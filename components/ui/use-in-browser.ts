"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * useInBrowser is false while the server renders a page and while the browser hydrates it, true
 * after: text that depends on the browser (its time zone) is written only then, so the server's
 * HTML and the browser's first render agree. Regression: the overview wrote the server's zone,
 * "UTC", and the browser's, "UTC-05:00", and React reported the mismatch.
 */
export function useInBrowser(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
