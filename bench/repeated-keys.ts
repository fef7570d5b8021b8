/**
 * What refusing a key given twice costs the decision API: `npx tsx bench/repeated-keys.ts`. For a
 * single decision's body and a batch of 100 and of 1,000, it measures (median of 7 runs of a
 * timed loop, after a warm-up) JSON.parse alone, the scanner (repeatedKeyPaths) alone, and the
 * body reader as the decision API calls it (readJsonText: JSON.parse, the scan, the zod schema)
 * against the same without the scan. The scan must stay within SCAN_RATIO of JSON.parse of the
 * same text, or the bench exits 1: it runs on every call, on the hot path.
 */
import { readJsonText, validateValue } from "../lib/http/json-text";
import { repeatedKeyPaths } from "../lib/http/repeated-keys";
import { decisionBatchSchema, decisionRequestSchema } from "../lib/schemas/decision.schema";
import { median } from "./harness";

/**
 * SCAN_RATIO: the scan at most this many times JSON.parse of the same text (it measures 1 to 1.5
 * times; the margin is for a busy machine, and a scan grown quadratic would pass it by far).
 */
const SCAN_RATIO = 2.5;
const RUNS = 7;

const single = JSON.stringify({
  key: "rk_live_4f9c2b7e1d3a8c6f0e5b9d2a",
  operation: "read",
  cost: 1,
});
/** batchOf is a batch body of `n` decisions, keys and operations varied. */
function batchOf(n: number): string {
  const decisions = Array.from({ length: n }, (_, i) => ({
    key: `rk_live_${i.toString(16).padStart(24, "0")}`,
    operation: i % 3 === 0 ? "write" : "read",
    ...(i % 5 === 0 ? { cost: 2 } : {}),
  }));
  return JSON.stringify({ decisions });
}

/**
 * nsPerCall is the median time of one call of each of `fs`, in nanoseconds, over RUNS timed loops
 * of `iterations` calls; the functions take turns in each run, so that a busy machine slows all.
 */
function nsPerCall(fs: (() => unknown)[], iterations: number): number[] {
  for (const f of fs) for (let i = 0; i < iterations; i++) f();
  const times = fs.map((): number[] => []);
  for (let run = 0; run < RUNS; run++) {
    fs.forEach((f, k) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) f();
      times[k]?.push(Number(process.hrtime.bigint() - start) / iterations);
    });
  }
  return times.map(median);
}

const cases = [
  { name: "single", text: single, schema: decisionRequestSchema, iterations: 200_000 },
  { name: "batch of 100", text: batchOf(100), schema: decisionBatchSchema, iterations: 2_000 },
  { name: "batch of 1,000", text: batchOf(1_000), schema: decisionBatchSchema, iterations: 200 },
];

let failed = false;
console.log("body            bytes   parse ns    scan ns  scan/parse  read w/o scan ns  read ns");
for (const { name, text, schema, iterations } of cases) {
  if (repeatedKeyPaths(text) !== null || !readJsonText(text, schema).ok) {
    throw new Error(`${name}: the body must be valid`);
  }
  const [parse = 0, scan = 0, withoutScan = 0, read = 0] = nsPerCall(
    [
      () => JSON.parse(text),
      () => repeatedKeyPaths(text),
      () => validateValue(JSON.parse(text), schema),
      () => readJsonText(text, schema),
    ],
    iterations,
  );
  const ratio = scan / parse;
  if (ratio > SCAN_RATIO) failed = true;
  console.log(
    [
      name.padEnd(14),
      String(text.length).padStart(6),
      parse.toFixed(0).padStart(10),
      scan.toFixed(0).padStart(10),
      ratio.toFixed(2).padStart(11),
      withoutScan.toFixed(0).padStart(17),
      read.toFixed(0).padStart(8),
    ].join(" "),
  );
}
if (failed) {
  console.error(`the scan took more than ${SCAN_RATIO} times JSON.parse of the same text`);
  process.exit(1);
}
