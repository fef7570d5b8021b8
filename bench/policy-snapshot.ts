/**
 * What an edit costs each edge: `npm run bench:snapshot` (tsx). For policies of 1,000, 10,000
 * and 100,000 customers (50 plans of two limits, an override for one customer in ten, 20 service
 * tokens) it measures the snapshot's size in Redis and, median of 7 runs after 5 warm-ups, the
 * control plane's encoding and an edge's decoding (JSON.parse, then the strict zod schema) and
 * building of the in-memory snapshot. The floor is JSON.parse of the same text alone: decoding
 * must stay within FLOOR_RATIO of it, and building within BUILD_RATIO of decoding, or the bench
 * exits 1 (the schema and the build are the parts that could grow unnoticed).
 */
import { createHash } from "node:crypto";
import { buildSnapshot, type PolicyRows } from "../lib/policy/snapshot";
import { decodePolicyRows, encodePolicyRows } from "../lib/policy/snapshot-codec";
import { median } from "./harness";

/** FLOOR_RATIO: decoding (parse and validate) at most this many times JSON.parse alone. */
const FLOOR_RATIO = 8;
/**
 * BUILD_RATIO: building the snapshot at most this many times decoding it. Regression: the build
 * scanned every override for each customer (2.9 s for 100,000 customers, 9 times the decode's
 * 0.2 s here), on the control plane and every edge at each edit.
 */
const BUILD_RATIO = 2;
const SIZES = [1_000, 10_000, 100_000];
const RUNS = 7;

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function policyOf(customers: number): PolicyRows {
  const plans = Array.from({ length: 50 }, (_, i) => ({
    id: i + 1,
    slug: `plan-${i + 1}`,
    name: `Plan ${i + 1}`,
    limits: [
      { operation: "read" as const, count: 100 * (i + 1), periodMs: 60_000 },
      { operation: "write" as const, count: 10 * (i + 1), periodMs: 60_000 },
    ],
  }));
  return {
    plans,
    customers: Array.from({ length: customers }, (_, i) => ({
      id: i + 1,
      name: `Customer ${i + 1} Ltd`,
      status: i % 50 === 0 ? ("suspended" as const) : ("active" as const),
      planId: (i % 50) + 1,
      apiKeyHash: digest(`key-${i}`),
      billingAnchorDay: (i % 31) + 1,
    })),
    overrides: Array.from({ length: customers / 10 }, (_, i) => ({
      customerId: i * 10 + 1,
      operation: "read" as const,
      count: 5_000,
      periodMs: 60_000,
      dryRun: false,
      expiresAt: i % 2 === 0 ? null : 1_900_000_000_000,
    })),
    serviceTokens: Array.from({ length: 20 }, (_, i) => ({
      id: i + 1,
      name: `service ${i + 1}`,
      tokenHash: digest(`token-${i}`),
      scopes: ["decide" as const],
    })),
  };
}

const WARM_UPS = 5;

function time(run: () => unknown): number {
  for (let i = 0; i < WARM_UPS; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
let missed = 0;
console.log(`node ${process.version}; median of ${RUNS} runs after ${WARM_UPS} warm-ups\n`);
console.log(
  "| customers | snapshot in Redis | encode (control plane) | JSON.parse (floor) | decode: parse + validate (edge) | build the snapshot (edge) | decode / floor |",
);
console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const size of SIZES) {
  const rows = policyOf(size);
  const text = encodePolicyRows(rows);
  const decoded = decodePolicyRows(text);
  if (!decoded.ok) throw new Error(`the bench's own policy does not decode: ${decoded.reason}`);
  const encode = time(() => encodePolicyRows(rows));
  const parse = time(() => JSON.parse(text));
  const decode = time(() => decodePolicyRows(text));
  const build = time(() => buildSnapshot(decoded.rows, 0));
  const ratio = decode / parse;
  if (ratio > FLOOR_RATIO) missed++;
  if (build > BUILD_RATIO * decode) missed++;
  console.log(
    `| ${size.toLocaleString("en-US")} | ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB | ${fmt(encode)} | ${fmt(parse)} | ${fmt(decode)} | ${fmt(build)} | ${ratio.toFixed(1)}x |`,
  );
}
console.log(
  `\n${missed === 0 ? "met   " : "MISSED"} decoding within ${FLOOR_RATIO}x of JSON.parse, and ` +
    `building within ${BUILD_RATIO}x of decoding, at every size`,
);
if (missed > 0) process.exitCode = 1;
