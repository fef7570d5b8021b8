import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

describe("parseEnv", () => {
  it("defaults to the in-memory store and the documented Redis settings", () => {
    const env = parseEnv({});
    expect(env.REDIS_URL).toBeUndefined();
    expect(env).toMatchObject({
      DATABASE_PATH: "data/ratekeeper.db",
      REDIS_PREFIX: "rk",
      REDIS_TIMEOUT_MS: 200,
      REDIS_READS_ON_FAILURE: "open",
      REDIS_WRITES_ON_FAILURE: "closed",
    });
    expect(parseEnv({ REDIS_URL: "" }).REDIS_URL).toBeUndefined();
  });

  it("defaults the usage rollups to a 5 s flush, 7 days of minutes and 90 days of hours", () => {
    expect(parseEnv({})).toMatchObject({
      USAGE_FLUSH_INTERVAL_MS: 5_000,
      USAGE_MINUTE_RETENTION_DAYS: 7,
      USAGE_HOUR_RETENTION_DAYS: 90,
    });
    expect(
      parseEnv({
        USAGE_FLUSH_INTERVAL_MS: "1000",
        USAGE_MINUTE_RETENTION_DAYS: "2",
        USAGE_HOUR_RETENTION_DAYS: "365",
      }),
    ).toMatchObject({
      USAGE_FLUSH_INTERVAL_MS: 1_000,
      USAGE_MINUTE_RETENTION_DAYS: 2,
      USAGE_HOUR_RETENTION_DAYS: 365,
    });
  });

  it("reads the Redis settings", () => {
    expect(
      parseEnv({
        REDIS_URL: "rediss://user:secret@cache.internal:6380/2",
        REDIS_PREFIX: "prod",
        REDIS_TIMEOUT_MS: "50",
        REDIS_READS_ON_FAILURE: "closed",
        REDIS_WRITES_ON_FAILURE: "open",
      }),
    ).toMatchObject({
      REDIS_URL: "rediss://user:secret@cache.internal:6380/2",
      REDIS_PREFIX: "prod",
      REDIS_TIMEOUT_MS: 50,
      REDIS_READS_ON_FAILURE: "closed",
      REDIS_WRITES_ON_FAILURE: "open",
    });
  });

  it.each([
    [
      { REDIS_URL: "http://cache:6379" },
      "REDIS_URL: REDIS_URL must be a redis:// or rediss:// URL",
    ],
    [{ REDIS_PREFIX: "a{b}" }, "REDIS_PREFIX: REDIS_PREFIX must be non-empty"],
    [{ REDIS_TIMEOUT_MS: "0" }, "REDIS_TIMEOUT_MS: REDIS_TIMEOUT_MS must be positive"],
    [{ REDIS_TIMEOUT_MS: "1.5" }, "REDIS_TIMEOUT_MS: REDIS_TIMEOUT_MS must be a whole number"],
    [{ REDIS_WRITES_ON_FAILURE: "sometimes" }, "REDIS_WRITES_ON_FAILURE:"],
    [
      { USAGE_FLUSH_INTERVAL_MS: "50" },
      "USAGE_FLUSH_INTERVAL_MS: USAGE_FLUSH_INTERVAL_MS must be at least 100",
    ],
    [{ USAGE_FLUSH_INTERVAL_MS: "soon" }, "USAGE_FLUSH_INTERVAL_MS:"],
    [
      { USAGE_MINUTE_RETENTION_DAYS: "0" },
      "USAGE_MINUTE_RETENTION_DAYS: USAGE_MINUTE_RETENTION_DAYS must be at least 1",
    ],
    [
      { USAGE_HOUR_RETENTION_DAYS: "2.5" },
      "USAGE_HOUR_RETENTION_DAYS: USAGE_HOUR_RETENTION_DAYS must be a whole number",
    ],
    [
      { USAGE_MINUTE_RETENTION_DAYS: "30", USAGE_HOUR_RETENTION_DAYS: "14" },
      "USAGE_HOUR_RETENTION_DAYS: USAGE_HOUR_RETENTION_DAYS must be at least USAGE_MINUTE_RETENTION_DAYS",
    ],
  ])("refuses %o, naming the variable", (source, message) => {
    expect(() => parseEnv(source)).toThrow(message);
  });
});
