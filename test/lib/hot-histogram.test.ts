import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { HotHistogram } from "@/lib/hot-histogram";

const BOUNDS = [0.001, 0.01, 0.1];

describe("HotHistogram", () => {
  it("exposes what prom-client's Histogram exposes for the same observations", async () => {
    const hotRegistry = new Registry();
    const hot = new HotHistogram(hotRegistry, "rk_t_seconds", "Time.", "store", BOUNDS);
    const refRegistry = new Registry();
    const ref = new Histogram({
      name: "rk_t_seconds",
      help: "Time.",
      labelNames: ["store"] as const,
      buckets: BOUNDS,
      registers: [refRegistry],
    });
    const observations: [string, number][] = [
      ["memory", 0.000_2],
      ["memory", 0.001],
      ["memory", 0.05],
      ["redis", 0.002],
      ["redis", 3],
      ["memory", 0.000_7],
    ];
    for (const [store, value] of observations) {
      hot.observe(store, value);
      ref.labels(store).observe(value);
    }
    const lines = (text: string) => text.split("\n").filter(Boolean).sort();
    expect(lines(await hotRegistry.metrics())).toEqual(lines(await refRegistry.metrics()));
    expect(await hotRegistry.metrics()).toContain(
      'rk_t_seconds_bucket{le="0.001",store="memory"} 3',
    );
  });

  it("reports nothing before the first observation", async () => {
    const registry = new Registry();
    new HotHistogram(registry, "rk_empty_seconds", "Nothing yet.", "store", BOUNDS);
    expect(await registry.metrics()).not.toContain("rk_empty_seconds_count");
  });
});
