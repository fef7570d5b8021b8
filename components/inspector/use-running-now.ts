"use client";

import { useEffect, useState } from "react";

/** RUN_STEP_MS is how often the live charts move on between two peeks: five times a second. */
const RUN_STEP_MS = 200;
/** RUN_AHEAD_MS bounds how far the charts run past the latest peek when peeks stop coming. */
const RUN_AHEAD_MS = 2_000;

/**
 * useRunningNow is the server time a live chart ends at: `serverNow` (the latest peek's time,
 * ms) moved on by the browser's clock since it arrived, five times a second while `running` (a
 * bucket refilling), so refills are drawn as they happen between peeks; it runs at most
 * RUN_AHEAD_MS past the latest peek. A full bucket's chart moves with the peeks alone.
 */
export function useRunningNow(serverNow: number, running: boolean): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    setNow(serverNow);
    if (serverNow === 0 || !running) return;
    const arrived = performance.now();
    const timer = setInterval(() => {
      const ahead = Math.min(RUN_AHEAD_MS, performance.now() - arrived);
      setNow(serverNow + Math.round(ahead));
    }, RUN_STEP_MS);
    return () => clearInterval(timer);
  }, [serverNow, running]);
  return now;
}
