import type { DeniedCheck } from "./denied-contract";
import { fmtRatio } from "./harness";
import type { Impl, Workload } from "./parameters";
import { bytesPerBucket, type Metric, results } from "./results";

/**
 * printTargets prints PASS or MISS for each of the benchmark issue's targets, on `metric`: hot
 * allow and denied path within 1.5x of the Map floor, at most 64 bytes per bucket, at least 3x
 * faster than RateLimiterMemory, and a denied path that throws nothing.
 */
export function printTargets(metric: Metric, deniedCheck: DeniedCheck): void {
  const cell = (impl: Impl, w: Workload) => results[metric].get(`${impl}/${w}`) ?? Number.NaN;
  const ratio1 = cell("ratekeeper", "hot1") / cell("floor", "hot1");
  const ratioDenied = cell("ratekeeper", "denied") / cell("floor", "denied");
  const rkBytes = bytesPerBucket.get("ratekeeper") ?? Number.NaN;
  const speedHot = cell("rlm", "hot1") / cell("ratekeeper", "hot1");
  const speedDenied = cell("rlm", "denied") / cell("ratekeeper", "denied");
  const target = (ok: boolean, text: string) => console.log(`${ok ? "PASS" : "MISS"}  ${text}`);
  target(ratio1 <= 1.5, `1-limit hot allow within 1.5x of the Map floor: ${fmtRatio(ratio1)}`);
  target(ratioDenied <= 1.5, `denied path within 1.5x of the Map floor: ${fmtRatio(ratioDenied)}`);
  target(rkBytes <= 64, `<= 64 bytes per bucket at 1,000,000 keys: ${rkBytes.toFixed(1)} bytes`);
  target(speedHot >= 3, `>= 3x faster than RateLimiterMemory, hot allow: ${fmtRatio(speedHot)}`);
  target(speedDenied >= 3, `>= 3x faster than RateLimiterMemory, denied: ${fmtRatio(speedDenied)}`);
  target(
    deniedCheck.thrown === 0 && deniedCheck.denials === deniedCheck.calls,
    "denied path throws nothing (every call returned false)",
  );
}
