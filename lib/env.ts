import { z } from "zod";

const envSchema = z
  .object({
    DATABASE_PATH: z.string().min(1).default("data/ratekeeper.db"),
    ADMIN_PASSWORD: z
      .string()
      .min(8, "ADMIN_PASSWORD must be at least 8 characters")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/\S+$/, "REDIS_URL must be a redis:// or rediss:// URL")
      .optional()
      .or(z.literal("").transform(() => undefined)),
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
  .refine((env) => env.USAGE_HOUR_RETENTION_DAYS >= env.USAGE_MINUTE_RETENTION_DAYS, {
    message: "USAGE_HOUR_RETENTION_DAYS must be at least USAGE_MINUTE_RETENTION_DAYS",
    path: ["USAGE_HOUR_RETENTION_DAYS"],
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
