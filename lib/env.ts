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

/** backupInterval reads BACKUP_INTERVAL, a duration such as "30m", "6h" or "1d", as milliseconds. */
const backupInterval = z.string().transform((value, ctx) => {
  let ms: number;
  try {
    ms = parsePeriod(value.trim() as `${number}m`);
  } catch {
    // "0m" has the form; it is the length that is wrong.
    ms = /^0+(ms|s|m|h|d)$/.test(value.trim()) ? 0 : Number.NaN;
  }
  if (Number.isNaN(ms)) {
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
    CONTROL_PLANE_URL: z
      .string()
      .trim()
      .regex(
        /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
        "CONTROL_PLANE_URL must be an http:// or https:// URL (the dashboard's address)",
      )
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
    DATABASE_PATH: z.string().default("data/ratekeeper.db"),
    BACKUP_DIR: z.string().trim().optional(),
    BACKUP_INTERVAL: backupInterval.optional(),
    BACKUP_KEEP: z.coerce
      .number({ message: "BACKUP_KEEP must be a whole number of backups" })
      .int("BACKUP_KEEP must be a whole number of backups")
      .min(1, "BACKUP_KEEP must be at least 1")
      .max(10_000, "BACKUP_KEEP must be at most 10000")
      .optional(),
    ADMIN_PASSWORD: z.string().min(8, "ADMIN_PASSWORD must be at least 8 characters").optional(),
    REDIS_URL: z
      .string()
      .regex(REDIS_URL_PATTERN, "REDIS_URL must be a redis:// or rediss:// URL")
      .optional(),
    REDIS_CLUSTER_NODES: clusterNodes.optional(),
    REDIS_PREFIX: z
      .string()
      .regex(/^[^{}\s]+$/, "REDIS_PREFIX must be non-empty, without braces or spaces")
      .default("rk"),
    REDIS_TIMEOUT_MS: z.coerce
      .number({ error: "REDIS_TIMEOUT_MS must be a whole number of milliseconds" })
      .int("REDIS_TIMEOUT_MS must be a whole number of milliseconds")
      .positive("REDIS_TIMEOUT_MS must be positive")
      .default(200),
    REDIS_READS_ON_FAILURE: z
      .enum(["open", "closed"], {
        message: "REDIS_READS_ON_FAILURE must be open (admit reads) or closed (refuse them)",
      })
      .default("open"),
    REDIS_WRITES_ON_FAILURE: z
      .enum(["open", "closed"], {
        message: "REDIS_WRITES_ON_FAILURE must be open (admit writes) or closed (refuse them)",
      })
      .default("closed"),
    REDIS_DENY_CACHE: z
      .enum(["on", "off"], { message: "REDIS_DENY_CACHE must be on or off" })
      .default("on"),
    REDIS_DENY_CACHE_SIZE: z.coerce
      .number({ error: "REDIS_DENY_CACHE_SIZE must be a whole number of refusals" })
      .int("REDIS_DENY_CACHE_SIZE must be a whole number of refusals")
      .positive("REDIS_DENY_CACHE_SIZE must be positive")
      .max(10_000_000, "REDIS_DENY_CACHE_SIZE must be at most 10,000,000")
      .default(10_000),
    SNAPSHOT_CHECK_INTERVAL_MS: z.coerce
      .number({ error: "SNAPSHOT_CHECK_INTERVAL_MS must be a whole number of milliseconds" })
      .int("SNAPSHOT_CHECK_INTERVAL_MS must be a whole number of milliseconds")
      .min(100, "SNAPSHOT_CHECK_INTERVAL_MS must be at least 100")
      .max(60_000, "SNAPSHOT_CHECK_INTERVAL_MS must be at most 60000 (a minute)")
      .default(1_000),
    PORT: z.coerce
      .number({ error: "PORT must be a whole number between 1 and 65535" })
      .int("PORT must be a whole number")
      .min(1, "PORT must be between 1 and 65535")
      .max(65_535, "PORT must be between 1 and 65535")
      .default(3000),
    HOST: z.string().default("0.0.0.0"),
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
    GATEWAY_UPSTREAM: z
      .string()
      .trim()
      .regex(
        /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/,
        "GATEWAY_UPSTREAM must be an http:// or https:// URL (with an optional path, no query)",
      )
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
    GATEWAY_TIMEOUT_MS: z.coerce
      .number({ error: "GATEWAY_TIMEOUT_MS must be a whole number of milliseconds" })
      .int("GATEWAY_TIMEOUT_MS must be a whole number of milliseconds")
      .positive("GATEWAY_TIMEOUT_MS must be positive")
      .default(30_000),
    GATEWAY_MAX_BODY: z.coerce
      .number({ error: "GATEWAY_MAX_BODY must be a whole number of bytes" })
      .int("GATEWAY_MAX_BODY must be a whole number of bytes")
      .min(0, "GATEWAY_MAX_BODY must be 0 or more")
      .max(Number.MAX_SAFE_INTEGER, "GATEWAY_MAX_BODY is too large")
      .default(10 * 1024 * 1024),
    NODE_ENV: z
      .enum(["development", "production", "test"], {
        message: "NODE_ENV must be development, production or test",
      })
      .default("development"),
    USAGE_FLUSH_INTERVAL_MS: z.coerce
      .number({ error: "USAGE_FLUSH_INTERVAL_MS must be a whole number of milliseconds" })
      .int("USAGE_FLUSH_INTERVAL_MS must be a whole number of milliseconds")
      .min(100, "USAGE_FLUSH_INTERVAL_MS must be at least 100")
      .max(60_000, "USAGE_FLUSH_INTERVAL_MS must be at most 60000 (a minute)")
      .default(5_000),
    USAGE_MINUTE_RETENTION_DAYS: z.coerce
      .number({ error: "USAGE_MINUTE_RETENTION_DAYS must be a whole number of days" })
      .int("USAGE_MINUTE_RETENTION_DAYS must be a whole number of days")
      .min(1, "USAGE_MINUTE_RETENTION_DAYS must be at least 1")
      .max(90, "USAGE_MINUTE_RETENTION_DAYS must be at most 90")
      .default(7),
    USAGE_HOUR_RETENTION_DAYS: z.coerce
      .number({ error: "USAGE_HOUR_RETENTION_DAYS must be a whole number of days" })
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
        message:
          "REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL (one server) or REDIS_CLUSTER_NODES (a cluster), not both",
      });
    }
    if (env.BACKUP_DIR === undefined) {
      for (const name of ["BACKUP_INTERVAL", "BACKUP_KEEP"] as const) {
        if (env[name] !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            message:
              env.RATEKEEPER_ROLE === "edge"
                ? `${name} is for the full app's scheduled backups: an edge has no database to back up, so unset it`
                : `${name} is set without a backup directory: set BACKUP_DIR to turn scheduled backups on, or unset it`,
          });
        }
      }
    } else if (env.RATEKEEPER_ROLE === "edge") {
      ctx.addIssue({
        code: "custom",
        path: ["BACKUP_DIR"],
        message:
          "BACKUP_DIR is for the full app (the control plane): an edge has no database to back up",
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
          "RATEKEEPER_ROLE=edge needs Redis: an edge has no database, it reads the policy and keeps its buckets in Redis, so set REDIS_URL or REDIS_CLUSTER_NODES",
      });
    }
  });

/** ENV_NAMES are the environment variables Ratekeeper reads, in the order of the schema. */
export const ENV_NAMES: readonly string[] = Object.keys(envSchema.shape);

/** Env is the validated environment. */
export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/**
 * EnvError is an environment that does not validate: `problems` holds one sentence per problem,
 * each naming its variable once ("RATEKEEPER_DEMO must be on … or off …"), fit to print as is.
 */
export class EnvError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid environment: ${problems.join("; ")}`);
    this.name = "EnvError";
    this.problems = problems;
  }
}

/** problemOf is one issue as a sentence naming its variable, once (every message above names it). */
function problemOf(issue: z.core.$ZodIssue): string {
  const name = String(issue.path[0] ?? "");
  return name === "" || issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`;
}

/**
 * withoutEmpty drops the variables set to an empty value, or to spaces only: such a variable is
 * unset and gets its default, for every variable alike (`FOO=` in a compose file or a
 * systemd unit means "no value", not "the value nothing").
 */
function withoutEmpty(source: Record<string, string | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && value.trim() !== "") kept[name] = value;
  }
  return kept;
}

/**
 * parseEnv validates an environment and throws an EnvError naming every bad variable. A
 * variable set to an empty value (or spaces only) counts as unset: its default applies.
 */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(withoutEmpty(source));
  if (!parsed.success) throw new EnvError(parsed.error.issues.map(problemOf));
  return parsed.data;
}

/**
 * envOrExit is getEnv for an entry point (the server, the scripts): a bad environment is
 * printed as one line per problem on stderr, without a stack trace (the operator's mistake, not
 * the program's), and the process exits with status 1.
 */
export function envOrExit(): Env {
  try {
    return getEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    for (const problem of error.problems) console.error(`[ratekeeper] Cannot start: ${problem}`);
    process.exit(1);
  }
}

/** getEnv parses the process's environment once (see parseEnv). */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
