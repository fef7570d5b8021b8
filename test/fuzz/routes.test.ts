import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { discoverRoutes } from "./discover";
import { loadProxy } from "./front";
import { inputParts, missingParams } from "./request";
import { ROUTES } from "./route-table";
import { type Failure, fuzzRoute, seedFor } from "./run";

// Every route of app/api, admin and API, gets generated hostile input: wrong types, extreme
// numbers, odd and huge strings, prototype-named keys at any depth, deep nesting, broken JSON,
// wrong content types, malformed escapes in paths, queries and cookies, with and without a
// session or key, same-site and cross-site. For every answer: no 5xx; every 4xx a problem
// body; after every 4xx every table and every bucket as before; admin writes refused from
// other sites and without a JSON body. Replay with the seed a failure prints:
//   FUZZ_SEED=<seed> FUZZ_RUNS=<runs> npx vitest run test/fuzz -t "<METHOD /path>$"

/** SEED is the suite's seed: fixed, so a run can be replayed; FUZZ_SEED picks another. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_250_101);
/**
 * RUNS is the number of random requests per input part of a route (its runs are RUNS times
 * `inputParts`: 1, 2 more for a body, 1 per path parameter, 1 for a query); FUZZ_RUNS changes it.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

const routes = await discoverRoutes();
const proxy = await loadProxy();
let swept = 0;
let random = 0;
const started = performance.now();

function report(key: string, seed: number, failures: Failure[]): string {
  const lines = failures.map((f) => `  ${f.signature} (${f.count}x)\n    e.g. ${f.example}`);
  return [
    `${key}: ${failures.length} distinct failures (route seed ${seed}).`,
    `Replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} npx vitest run test/fuzz -t "${key.replace(/[[\]]/g, "\\$&")}$"`,
    ...lines,
  ].join("\n");
}

describe("fuzz: every API route refuses hostile input cleanly", () => {
  beforeAll(() => {
    // Every route reachable, the benchmark's unprotected twin included.
    vi.stubEnv("RATEKEEPER_BENCH", "1");
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const total = `${swept + random} requests (${swept} swept, ${random} random)`;
    console.info(`fuzz: ${total} to ${routes.length} routes in ${seconds} s, seed ${SEED}`);
  });

  it("finds the routes, and has a generator for each one's params and body", () => {
    expect(routes.length).toBeGreaterThan(0);
    const missing = routes.flatMap((route) => [
      ...(ROUTES[route.key]
        ? []
        : [
            `"${route.key}": add its entry to ROUTES in test/fuzz/route-table.ts (valid body or NO_BODY, query)`,
          ]),
      ...missingParams(route).map(
        (name) =>
          `"${route.key}": add a generator for [${name}] to PARAMS in test/fuzz/route-table.ts`,
      ),
    ]);
    const gone = Object.keys(ROUTES)
      .filter((key) => !routes.some((route) => route.key === key))
      .map((key) => `"${key}" is in ROUTES but no route exports it: remove it`);
    expect([...missing, ...gone]).toEqual([]);
  });

  for (const route of routes) {
    const spec = ROUTES[route.key];
    if (!spec || missingParams(route).length > 0) continue;
    it(route.key, async () => {
      const seed = seedFor(SEED, route.key);
      const runs = RUNS * inputParts(route, spec);
      const result = await fuzzRoute(route, spec, { seed, runs, proxy });
      swept += result.swept;
      random += result.random;
      expect(result.random).toBe(runs);
      if (result.failures.length > 0) expect.fail(report(route.key, seed, result.failures));
    }, 120_000);
  }
});
