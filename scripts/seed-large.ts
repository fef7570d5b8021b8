// npm run db:seed-large: make a database at DATABASE_PATH with 10,000 customers, 50 plans and
// 100,000 audit entries, to see and measure the dashboard at scale. It refuses to touch an
// existing file unless given --replace, which deletes it first.
import { existsSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../db/client";
import { LARGE_SEED, seedLarge } from "../db/seed-large";
import { envOrExit } from "../lib/env";
import { generateApiKey } from "../lib/policy/api-key";

const { DATABASE_PATH } = envOrExit();
if (existsSync(DATABASE_PATH)) {
  if (!process.argv.includes("--replace")) {
    console.error(
      `${DATABASE_PATH} exists: set DATABASE_PATH to a new file, or pass --replace to delete it first.`,
    );
    process.exit(1);
  }
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${DATABASE_PATH}${suffix}`, { force: true });
}
const started = performance.now();
const { sqlite } = openDatabase(DATABASE_PATH);
seedLarge(sqlite, LARGE_SEED, generateApiKey, Date.now());
sqlite.pragma("optimize");
sqlite.close();
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `${DATABASE_PATH}: ${LARGE_SEED.plans} plans, ${LARGE_SEED.customers.toLocaleString("en-US")} customers, ${LARGE_SEED.auditEntries.toLocaleString("en-US")} audit entries in ${seconds} s.`,
);
console.log("Start the server on it (ADMIN_PASSWORD sets the password) and sign in.");
