"use client";

import { useQuery } from "@tanstack/react-query";
import type { HealthResponse } from "@/lib/client/types";

async function fetchHealth(): Promise<HealthResponse> {
  const response = await fetch("/api/health", { cache: "no-store" });
  if (!response.ok) throw new Error(`health check answered ${response.status}`);
  return (await response.json()) as HealthResponse;
}

/**
 * StoreStatus tells the operator where this instance keeps its buckets, and whether Redis
 * answers (or has not answered yet): polled every five seconds.
 */
export function StoreStatus() {
  const health = useQuery({ queryKey: ["health"], queryFn: fetchHealth, refetchInterval: 5_000 });
  if (!health.data) return null;
  const { store, redis } = health.data;
  const down = store === "redis" && redis === "down";
  const connecting = store === "redis" && redis === "connecting";
  return (
    <div className={`store-status${down ? " down" : ""}`} data-testid="store-status">
      {store === "memory"
        ? "Buckets in memory"
        : down
          ? "Redis unreachable: failure policy in force"
          : connecting
            ? "Connecting to Redis"
            : "Buckets in Redis"}
    </div>
  );
}
