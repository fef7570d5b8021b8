"use client";

import { formatZone } from "@/lib/time-format";
import { useInBrowser } from "./use-in-browser";

/**
 * ZoneName names the browser's time zone at an instant (ms) the dashboard's one way, "UTC-05:00"
 * or "UTC"; while the server renders the page it says "your time zone", as the server cannot
 * know the browser's.
 */
export function ZoneName({ at, className }: { at: number; className?: string }) {
  return <span className={className}>{useInBrowser() ? formatZone(at) : "your time zone"}</span>;
}
