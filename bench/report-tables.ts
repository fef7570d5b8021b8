import { fmtInt, fmtNs, fmtRatio, table } from "./harness";
import {
  IMPL_NAMES,
  IMPLS,
  type Impl,
  MANY_KEYS,
  WORKLOAD_NAMES,
  WORKLOADS,
  type Workload,
} from "./parameters";
import { bytesPerBucket, type Metric, results } from "./results";

/**
 * printTimes prints the time per call of every (workload, implementation) for `metric`, with each
 * implementation's ratio to the Map floor, then the bare clock reads.
 */
export function printTimes(metric: Metric): void {
  const get = (id: string) => results[metric].get(id) ?? Number.NaN;
  const cell = (impl: Impl, w: Workload) => get(`${impl}/${w}`);
  console.log(
    table(
      ["workload", ...IMPLS.map((impl) => IMPL_NAMES[impl])],
      WORKLOADS.map((w) => [
        WORKLOAD_NAMES[w],
        ...IMPLS.map((impl) => {
          const ns = cell(impl, w);
          return impl === "floor" ? fmtNs(ns) : `${fmtNs(ns)} (${fmtRatio(ns / cell("floor", w))})`;
        }),
      ]),
    ),
  );
  console.log(
    `clock reads alone: performance.now() ${fmtNs(get("clock/performance.now"))} through the ` +
      `global, ${fmtNs(get("clock/perf.now"))} through a captured \`performance\`; ` +
      `Date.now() ${fmtNs(get("clock/Date.now"))}`,
  );
}

/**
 * printSpeedups prints, per workload, RateLimiterMemory's time over Ratekeeper's and over the Map
 * floor's for `metric`, and Ratekeeper's speed-up over RateLimiterMemory with its default
 * keyPrefix.
 */
export function printSpeedups(metric: Metric): void {
  const get = (id: string) => results[metric].get(id) ?? Number.NaN;
  const cell = (impl: Impl, w: Workload) => get(`${impl}/${w}`);
  console.log(
    table(
      ["workload", "Ratekeeper", "Map floor", "Ratekeeper vs RLM, default keyPrefix"],
      WORKLOADS.map((w) => {
        const prefixed = get(`rlmPrefixed/${w}`);
        return [
          WORKLOAD_NAMES[w],
          fmtRatio(cell("rlm", w) / cell("ratekeeper", w)),
          fmtRatio(cell("rlm", w) / cell("floor", w)),
          Number.isNaN(prefixed)
            ? "-"
            : `${fmtRatio(prefixed / cell("ratekeeper", w))} (RLM ${fmtNs(prefixed)})`,
        ];
      }),
    ),
  );
}

/** printHeapPerBucket prints each implementation's heap per bucket at MANY_KEYS keys, in bytes. */
export function printHeapPerBucket(): void {
  console.log(
    `Heap per bucket at ${fmtInt(MANY_KEYS)} keys (after gc(), key strings not counted):`,
  );
  console.log(
    table(
      ["", ...IMPLS.map((impl) => IMPL_NAMES[impl])],
      [
        [
          "bytes/bucket",
          ...IMPLS.map((impl) => (bytesPerBucket.get(impl) ?? Number.NaN).toFixed(1)),
        ],
      ],
    ),
  );
}
