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
  ])("refuses %o, naming the variable", (source, message) => {
    expect(() => parseEnv(source)).toThrow(message);
  });
});
