import { z } from "zod";

const envSchema = z.object({
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
