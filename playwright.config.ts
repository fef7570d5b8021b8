import { existsSync } from "node:fs";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
/** UPSTREAM_PORT is where the API the gateway fronts listens (e2e/support/upstream.mjs). */
const UPSTREAM_PORT = PORT + 1;
/** The admin password the e2e server starts with (a fresh temporary database each run). */
export const E2E_ADMIN_PASSWORD = "e2e-admin-password";

// Debian's Chromium when present (CHROMIUM_PATH overrides); else Playwright's own browser.
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
const databaseDir = path.join(process.cwd(), ".e2e", String(PORT));

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "on-first-retry",
    ...devices["Desktop Chrome"],
    viewport: { width: 1366, height: 860 },
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    {
      // The API behind the gateway (/gw/*): answers every request 200 with its method and path.
      command: "node e2e/support/upstream.mjs",
      url: `http://127.0.0.1:${UPSTREAM_PORT}/`,
      reuseExistingServer: false,
      timeout: 10_000,
      env: { PORT: String(UPSTREAM_PORT) },
    },
    {
      // A fresh database each run: the server seeds it on start.
      command: `rm -rf "${databaseDir}" && mkdir -p "${databaseDir}" && node dist/server.mjs`,
      url: `http://127.0.0.1:${PORT}/login`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        DATABASE_PATH: path.join(databaseDir, "e2e.db"),
        ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
        PORT: String(PORT),
        HOST: "127.0.0.1",
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        // The usage specs wait for the rollups: a short flush keeps those waits short.
        USAGE_FLUSH_INTERVAL_MS: "500",
        GATEWAY_UPSTREAM: `http://127.0.0.1:${UPSTREAM_PORT}`,
      },
    },
  ],
});
