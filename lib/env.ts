import { z } from "zod";
import { parsePeriod } from "@/lib/limiter";
import { ROLES } from "@/lib/vocabulary";

const REDIS_URL_PATTERN = /^rediss?:\/\/\S+$/;

/** A comma-separated list of Redis Cluster node URLs, each with a host (the port defaults to 6379). */
const clusterNodes = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((url) => url.trim())
      .filter((url) => url !== ""),
  )
  .superRefine((urls, ctx) => {
    if (urls.length === 0) {
      ctx.addIssue({ code: "custom", message: "REDIS_CLUSTER_NODES must name at least one node" });
    }
    for (const url of urls) {
      let host = "";
      try {
        host = new URL(url).hostname;
      } catch {
        // reported below
      }
      if (!REDIS_URL_PATTERN.test(url) || host === "") {
        ctx.addIssue({
          code: "custom",
          message: `REDIS_CLUSTER_NODES must be redis:// or rediss:// URLs separated by commas, got "${url}"`,
        });
      }
    }
  });

/** BACKUP_INTERVAL_BOUNDS are the shortest and longest time between scheduled backups, in ms. */
export const BACKUP_INTERVAL_BOUNDS = { min: 60_000, max: 7 * 86_400_000 } as const;

/** blankIsUnset reads an empty or blank variable as unset. */
const blankIsUnset = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

/** backupInterval reads BACKUP_INTERVAL, a duration such as "30m", "6h" or "1d", as milliseconds. */
const backupInterval = z.string().transform((value, ctx) => {
  let ms: number;
  try {
    ms = parsePeriod(value.trim() as `${number}m`);
  } catch {
    ctx.addIssue({
      code: "custom",
      message: `BACKUP_INTERVAL must be a whole number and a unit (s, m, h or d), such as 30m, 6h or 1d; got "${value}"`,
    });
    return z.NEVER;
  }
  if (ms < BACKUP_INTERVAL_BOUNDS.min || ms > BACKUP_INTERVAL_BOUNDS.max) {
    ctx.addIssue({
      code: "custom",
      message: `BACKUP_INTERVAL must be between 1m and 7d; got "${value}"`,
    });
    return z.NEVER;
  }
  return ms;
});

const envSchema = z
  .object({
    RATEKEEPER_ROLE: z
      .enum(ROLES, {
        message:
          "RATEKEEPER_ROLE must be full (the app, with its database) or edge (decisions only)",
      })
      .default("full"),
    RATEKEEPER_DEMO: z
      .enum(["on", "off"], {
        message:
          "RATEKEEPER_DEMO must be on (a new database gets a demo customer, and /api/v1/items answers) or off (a production install: neither)",
      })
      .default("on"),
    CONTROL_PLANE_URL: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      z
        .string()
        .trim()
        .regex(
          /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
          "CONTROL_PLANE_URL must be an http:// or https:// URL (the dashboard's address)",
        )
        .transform((value) => value.replace(/\/+$/, ""))
        .optional(),
    ),
    DATABASE_PATH: z.string().min(1).default("data/ratekeeper.db"),
    BACKUP_DIR: z.preprocess(blankIsUnset, z.string().trim().optional()),
    BACKUP_INTERVAL: z.preprocess(blankIsUnset, backupInterval.optional()),
    BACKUP_KEEP: z.preprocess(
      blankIsUnset,
      z.coerce
        .number({ message: "BACKUP_KEEP must be a whole number of backups" })
        .int("BACKUP_KEEP must be a whole number of backups")
        .min(1, "BACKUP_KEEP must be at least 1")
        .max(10_000, "BACKUP_KEEP must be at most 10000")
        .optional(),
    ),
    ADMIN_PASSWORD: z
      .string()
      .min(8, "ADMIN_PASSWORD must be at least 8 characters")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    REDIS_URL: z
      .string()
      .regex(REDIS_URL_PATTERN, "REDIS_URL must be a redis:// or rediss:// URL")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    REDIS_CLUSTER_NODES: z
      .literal("")
      .transform(() => undefined)
      .or(clusterNodes)
      .optional(),
    REDIS_PREFIX: z
      .string()
      .regex(/^[^{}\s]+$/, "REDIS_PREFIX must be non-empty, without braces or spaces")
      .default("rk"),
    REDIS_TIMEOUT_MS: z.coerce
      .number()
      .int("REDIS_TIMEOUT_MS must be a whole number of milliseconds")
      .positive("REDIS_TIMEOUT_MS must be positive")
      .default(200),
    REDIS_READS_ON_FAILURE: z.enum(["open", "closed"]).default("open"),
    REDIS_WRITES_ON_FAILURE: z.enum(["open", "closed"]).default("closed"),
    REDIS_DENY_CACHE: z
      .enum(["on", "off"], { message: "REDIS_DENY_CACHE must be on or off" })
      .default("on"),
    REDIS_DENY_CACHE_SIZE: z.coerce
      .number()
      .int("REDIS_DENY_CACHE_SIZE must be a whole number of refusals")
      .positive("REDIS_DENY_CACHE_SIZE must be positive")
      .max(10_000_000, "REDIS_DENY_CACHE_SIZE must be at most 10,000,000")
      .default(10_000),
    PORT: z.coerce
      .number()
      .int("PORT must be a whole number")
      .min(1, "PORT must be between 1 and 65535")
      .max(65_535, "PORT must be between 1 and 65535")
      .default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    TRUST_PROXY: z
      .string()
      .trim()
      .toLowerCase()
      .regex(
        /^(off|false|\d{1,2})$/,
        "TRUST_PROXY must be off, or the number of proxies (0-99) in front of the app",
      )
      .transform((value) => (value === "off" || value === "false" ? 0 : Number(value)))
      .default(0),
    GATEWAY_UPSTREAM: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      z
        .string()
        .trim()
        .regex(
          /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
          "GATEWAY_UPSTREAM must be an http:// or https:// URL (with an optional path, no query)",
        )
        .transform((value) => value.replace(/\/+$/, ""))
        .optional(),
    ),
    GATEWAY_TIMEOUT_MS: z.coerce
      .number()
      .int("GATEWAY_TIMEOUT_MS must be a whole number of milliseconds")
      .positive("GATEWAY_TIMEOUT_MS must be positive")
      .default(30_000),
    GATEWAY_MAX_BODY: z.coerce
      .number()
      .int("GATEWAY_MAX_BODY must be a whole number of bytes")
      .min(0, "GATEWAY_MAX_BODY must be 0 or more")
      .max(Number.MAX_SAFE_INTEGER, "GATEWAY_MAX_BODY is too large")
      .default(10 * 1024 * 1024),
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    USAGE_FLUSH_INTERVAL_MS: z.coerce
      .number()
      .int("USAGE_FLUSH_INTERVAL_MS must be a whole number of milliseconds")
      .min(100, "USAGE_FLUSH_INTERVAL_MS must be at least 100")
      .max(60_000, "USAGE_FLUSH_INTERVAL_MS must be at most 60000 (a minute)")
      .default(5_000),
    USAGE_MINUTE_RETENTION_DAYS: z.coerce
      .number()
      .int("USAGE_MINUTE_RETENTION_DAYS must be a whole number of days")
      .min(1, "USAGE_MINUTE_RETENTION_DAYS must be at least 1")
      .max(90, "USAGE_MINUTE_RETENTION_DAYS must be at most 90")
      .default(7),
    USAGE_HOUR_RETENTION_DAYS: z.coerce
      .number()
      .int("USAGE_HOUR_RETENTION_DAYS must be a whole number of days")
      .min(1, "USAGE_HOUR_RETENTION_DAYS must be at least 1")
      .max(3_650, "USAGE_HOUR_RETENTION_DAYS must be at most 3650")
      .default(90),
  })
  .superRefine((env, ctx) => {
    if (env.USAGE_HOUR_RETENTION_DAYS < env.USAGE_MINUTE_RETENTION_DAYS) {
      ctx.addIssue({
        code: "custom",
        path: ["USAGE_HOUR_RETENTION_DAYS"],
        message: "USAGE_HOUR_RETENTION_DAYS must be at least USAGE_MINUTE_RETENTION_DAYS",
      });
    }
    if (env.REDIS_URL !== undefined && env.REDIS_CLUSTER_NODES !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["REDIS_CLUSTER_NODES"],
        message: "set REDIS_URL (one server) or REDIS_CLUSTER_NODES (a cluster), not both",
      });
    }
    if (env.BACKUP_DIR === undefined) {
      for (const name of ["BACKUP_INTERVAL", "BACKUP_KEEP"] as const) {
        if (env[name] !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: `${name} is set but BACKUP_DIR is not: set BACKUP_DIR to turn scheduled backups on, or unset ${name}`,
          });
        }
      }
    } else if (env.RATEKEEPER_ROLE === "edge") {
      ctx.addIssue({
        code: "custom",
        path: ["BACKUP_DIR"],
        message:
          "an edge has no database to back up: set BACKUP_DIR on the full app (the control plane)",
      });
    }
    if (
      env.RATEKEEPER_ROLE === "edge" &&
      env.REDIS_URL === undefined &&
      env.REDIS_CLUSTER_NODES === undefined
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["RATEKEEPER_ROLE"],
        message:
          "an edge has no database: it reads the policy and keeps its buckets in Redis, so set REDIS_URL or REDIS_CLUSTER_NODES",
      });
    }
  });

/** Env is the validated environment. */
export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** parseEnv validates an environment and throws an Error naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}

/** getEnv parses the process's environment once (see parseEnv). */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
