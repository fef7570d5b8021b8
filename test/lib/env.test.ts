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

describe("parseEnv: the gateway", () => {
  it("is off by default, with a 30 s timeout and a 10 MiB body limit", () => {
    const env = parseEnv({});
    expect(env.GATEWAY_UPSTREAM).toBeUndefined();
    expect(env.GATEWAY_TIMEOUT_MS).toBe(30_000);
    expect(env.GATEWAY_MAX_BODY).toBe(10_485_760);
    expect(parseEnv({ GATEWAY_UPSTREAM: "" }).GATEWAY_UPSTREAM).toBeUndefined();
  });

  it("reads the upstream (a trailing slash dropped), the timeout and the body limit", () => {
    expect(
      parseEnv({
        GATEWAY_UPSTREAM: "http://api.internal:8080/v2/",
        GATEWAY_TIMEOUT_MS: "2500",
        GATEWAY_MAX_BODY: "1048576",
      }),
    ).toMatchObject({
      GATEWAY_UPSTREAM: "http://api.internal:8080/v2",
      GATEWAY_TIMEOUT_MS: 2_500,
      GATEWAY_MAX_BODY: 1_048_576,
    });
    expect(parseEnv({ GATEWAY_UPSTREAM: "https://10.0.0.5" }).GATEWAY_UPSTREAM).toBe(
      "https://10.0.0.5",
    );
  });

  it.each([
    [{ GATEWAY_UPSTREAM: "ftp://files:21" }, "GATEWAY_UPSTREAM: GATEWAY_UPSTREAM must be an http"],
    [{ GATEWAY_UPSTREAM: "http://api:80/?q=1" }, "GATEWAY_UPSTREAM:"],
    [{ GATEWAY_UPSTREAM: "api.internal:8080" }, "GATEWAY_UPSTREAM:"],
    [{ GATEWAY_TIMEOUT_MS: "0" }, "GATEWAY_TIMEOUT_MS: GATEWAY_TIMEOUT_MS must be positive"],
    [{ GATEWAY_TIMEOUT_MS: "soon" }, "GATEWAY_TIMEOUT_MS:"],
    [{ GATEWAY_MAX_BODY: "-1" }, "GATEWAY_MAX_BODY: GATEWAY_MAX_BODY must be 0 or more"],
    [{ GATEWAY_MAX_BODY: "10MB" }, "GATEWAY_MAX_BODY:"],
  ])("refuses %o, naming the variable", (source, message) => {
    expect(() => parseEnv(source)).toThrow(message);
  });
});
