"use client";

import { useEffect, useState } from "react";

/** RANGE_REFRESH_MS is how often a range view asks again: the rollups flush every few seconds. */
export const RANGE_REFRESH_MS = 5_000;

/**
 * useRangeNow is the browser's time (ms), advanced every RANGE_REFRESH_MS while the page is
 * open: range views compute their `from` and `to` from it, so every query of a view shares them.
 */
export function useRangeNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), RANGE_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
