import { backupSettingsOf } from "@/lib/backup/backup-schedule";
import { getEnv } from "@/lib/env";
import { redisOptionsOf, usageSettingsOf } from "./data-plane";
import { createRuntime, type Runtime } from "./full";

export type { DataPlaneRuntime, RedisOptions } from "./data-plane";
export { createRuntime, type Runtime, type RuntimeOptions } from "./full";

const globalRef = globalThis as typeof globalThis & { __ratekeeperRuntime?: Runtime };

/**
 * getRuntime returns the process's runtime, created from the environment on first use. It lives
 * on globalThis so dev reloads and separate module graphs share one limiter.
 */
export function getRuntime(): Runtime {
  if (!globalRef.__ratekeeperRuntime) {
    const env = getEnv();
    globalRef.__ratekeeperRuntime = createRuntime({
      databasePath: env.DATABASE_PATH,
      adminPassword: env.ADMIN_PASSWORD,
      redis: redisOptionsOf(env),
      usage: usageSettingsOf(env),
      demo: env.RATEKEEPER_DEMO === "on",
      snapshotCheckMs: env.SNAPSHOT_CHECK_INTERVAL_MS,
      backups: backupSettingsOf(env),
    });
  }
  return globalRef.__ratekeeperRuntime;
}

/** setRuntime replaces the process's runtime (tests), closing none. */
export function setRuntime(runtime: Runtime | undefined): void {
  globalRef.__ratekeeperRuntime = runtime;
}
