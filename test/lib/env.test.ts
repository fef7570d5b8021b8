import { describe, expect, it } from "vitest";
import { ENV_NAMES, EnvError, parseEnv } from "@/lib/env";

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
      REDIS_DENY_CACHE: "on",
      REDIS_DENY_CACHE_SIZE: 10_000,
    });
    expect(env.REDIS_CLUSTER_NODES).toBeUndefined();
    expect(parseEnv({ REDIS_URL: "" }).REDIS_URL).toBeUndefined();
    expect(parseEnv({ REDIS_CLUSTER_NODES: "" }).REDIS_CLUSTER_NODES).toBeUndefined();
  });

  it("reads a Redis Cluster's nodes and the deny cache's settings", () => {
    expect(
      parseEnv({
        REDIS_CLUSTER_NODES: "redis://10.0.0.1:7000, rediss://user:secret@10.0.0.2:7001",
        REDIS_DENY_CACHE: "off",
        REDIS_DENY_CACHE_SIZE: "500",
      }),
    ).toMatchObject({
      REDIS_CLUSTER_NODES: ["redis://10.0.0.1:7000", "rediss://user:secret@10.0.0.2:7001"],
      REDIS_DENY_CACHE: "off",
      REDIS_DENY_CACHE_SIZE: 500,
    });
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

  it("checks the policy snapshot in Redis every second by default, or as set", () => {
    expect(parseEnv({}).SNAPSHOT_CHECK_INTERVAL_MS).toBe(1_000);
    expect(parseEnv({ SNAPSHOT_CHECK_INTERVAL_MS: "250" }).SNAPSHOT_CHECK_INTERVAL_MS).toBe(250);
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
    [{ REDIS_URL: "http://cache:6379" }, "REDIS_URL must be a redis:// or rediss:// URL"],
    [{ REDIS_PREFIX: "a{b}" }, "REDIS_PREFIX must be non-empty"],
    [{ REDIS_TIMEOUT_MS: "0" }, "REDIS_TIMEOUT_MS must be positive"],
    [{ REDIS_TIMEOUT_MS: "1.5" }, "REDIS_TIMEOUT_MS must be a whole number"],
    [
      { REDIS_WRITES_ON_FAILURE: "sometimes" },
      "REDIS_WRITES_ON_FAILURE must be open (admit writes) or closed (refuse them)",
    ],
    [{ USAGE_FLUSH_INTERVAL_MS: "50" }, "USAGE_FLUSH_INTERVAL_MS must be at least 100"],
    [
      { USAGE_FLUSH_INTERVAL_MS: "soon" },
      "USAGE_FLUSH_INTERVAL_MS must be a whole number of milliseconds",
    ],
    [{ SNAPSHOT_CHECK_INTERVAL_MS: "50" }, "SNAPSHOT_CHECK_INTERVAL_MS must be at least 100"],
    [
      { SNAPSHOT_CHECK_INTERVAL_MS: "120000" },
      "SNAPSHOT_CHECK_INTERVAL_MS must be at most 60000 (a minute)",
    ],
    [
      { SNAPSHOT_CHECK_INTERVAL_MS: "0.5" },
      "SNAPSHOT_CHECK_INTERVAL_MS must be a whole number of milliseconds",
    ],
    [
      { SNAPSHOT_CHECK_INTERVAL_MS: "often" },
      "SNAPSHOT_CHECK_INTERVAL_MS must be a whole number of milliseconds",
    ],
    [{ USAGE_MINUTE_RETENTION_DAYS: "0" }, "USAGE_MINUTE_RETENTION_DAYS must be at least 1"],
    [{ USAGE_HOUR_RETENTION_DAYS: "2.5" }, "USAGE_HOUR_RETENTION_DAYS must be a whole number"],
    [
      { USAGE_MINUTE_RETENTION_DAYS: "30", USAGE_HOUR_RETENTION_DAYS: "14" },
      "USAGE_HOUR_RETENTION_DAYS must be at least USAGE_MINUTE_RETENTION_DAYS",
    ],
    [
      { REDIS_CLUSTER_NODES: "10.0.0.1:7000" },
      'REDIS_CLUSTER_NODES must be redis:// or rediss:// URLs separated by commas, got "10.0.0.1:7000"',
    ],
    [{ REDIS_CLUSTER_NODES: " , " }, "REDIS_CLUSTER_NODES must name at least one node"],
    [
      { REDIS_URL: "redis://cache:6379", REDIS_CLUSTER_NODES: "redis://node:7000" },
      "REDIS_URL and REDIS_CLUSTER_NODES are both set: set REDIS_URL (one server) or REDIS_CLUSTER_NODES (a cluster), not both",
    ],
    [{ REDIS_DENY_CACHE: "yes" }, "REDIS_DENY_CACHE must be on or off"],
    [{ REDIS_DENY_CACHE_SIZE: "0" }, "REDIS_DENY_CACHE_SIZE must be positive"],
    [{ REDIS_DENY_CACHE_SIZE: "2.5" }, "REDIS_DENY_CACHE_SIZE must be a whole"],
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
    [{ GATEWAY_UPSTREAM: "ftp://files:21" }, "GATEWAY_UPSTREAM must be an http"],
    [{ GATEWAY_UPSTREAM: "http://api:80/?q=1" }, "GATEWAY_UPSTREAM must be an http"],
    [{ GATEWAY_UPSTREAM: "api.internal:8080" }, "GATEWAY_UPSTREAM must be an http"],
    [{ GATEWAY_TIMEOUT_MS: "0" }, "GATEWAY_TIMEOUT_MS must be positive"],
    [{ GATEWAY_TIMEOUT_MS: "soon" }, "GATEWAY_TIMEOUT_MS must be a whole number of milliseconds"],
    [{ GATEWAY_MAX_BODY: "-1" }, "GATEWAY_MAX_BODY must be 0 or more"],
    [{ GATEWAY_MAX_BODY: "10MB" }, "GATEWAY_MAX_BODY must be a whole number of bytes"],
  ])("refuses %o, naming the variable", (source, message) => {
    expect(() => parseEnv(source)).toThrow(message);
  });

  it("is the full app by default, and an edge with Redis and the control plane's address", () => {
    expect(parseEnv({}).RATEKEEPER_ROLE).toBe("full");
    expect(parseEnv({}).CONTROL_PLANE_URL).toBeUndefined();
    expect(
      parseEnv({
        RATEKEEPER_ROLE: "edge",
        REDIS_URL: "redis://cache:6379",
        CONTROL_PLANE_URL: "https://ratekeeper.internal/",
      }),
    ).toMatchObject({
      RATEKEEPER_ROLE: "edge",
      REDIS_URL: "redis://cache:6379",
      CONTROL_PLANE_URL: "https://ratekeeper.internal",
    });
    expect(
      parseEnv({ RATEKEEPER_ROLE: "edge", REDIS_CLUSTER_NODES: "redis://10.0.0.1:7000" })
        .RATEKEEPER_ROLE,
    ).toBe("edge");
    expect(parseEnv({ CONTROL_PLANE_URL: " " }).CONTROL_PLANE_URL).toBeUndefined();
  });

  it.each([
    [{ RATEKEEPER_ROLE: "edge" }, "RATEKEEPER_ROLE=edge needs Redis: an edge has no database"],
    [{ RATEKEEPER_ROLE: "edge", REDIS_URL: "" }, "set REDIS_URL or REDIS_CLUSTER_NODES"],
    [{ RATEKEEPER_ROLE: "control" }, "RATEKEEPER_ROLE must be full"],
    [{ CONTROL_PLANE_URL: "dashboard.internal" }, "CONTROL_PLANE_URL must be"],
    [{ CONTROL_PLANE_URL: "javascript:alert(1)" }, "CONTROL_PLANE_URL must be an http"],
  ])("refuses the role settings %o, naming the variable", (source, message) => {
    expect(() => parseEnv(source)).toThrow(message);
  });
});

describe("RATEKEEPER_DEMO", () => {
  it("is on by default, for the quick start, and can be turned off for a production install", () => {
    expect(parseEnv({}).RATEKEEPER_DEMO).toBe("on");
    expect(parseEnv({ RATEKEEPER_DEMO: "on" }).RATEKEEPER_DEMO).toBe("on");
    expect(parseEnv({ RATEKEEPER_DEMO: "off" }).RATEKEEPER_DEMO).toBe("off");
  });

  it("refuses any other value, loudly, naming the variable and its values", () => {
    for (const value of ["yes", "false", "OFF", "0"]) {
      expect(() => parseEnv({ RATEKEEPER_DEMO: value }), value).toThrow(
        /RATEKEEPER_DEMO must be on .* or off \(a production install: neither\)/,
      );
    }
  });

  // Regression: RATEKEEPER_DEMO= (as a compose file or a unit writes an unset value) refused to
  // start, while REDIS_URL= and GATEWAY_UPSTREAM= meant "unset".
  it("takes an empty value as unset: the default, on", () => {
    expect(parseEnv({ RATEKEEPER_DEMO: "" }).RATEKEEPER_DEMO).toBe("on");
    expect(parseEnv({ RATEKEEPER_DEMO: "  " }).RATEKEEPER_DEMO).toBe("on");
  });
});

describe("parseEnv: empty values and messages", () => {
  it("takes every variable set to an empty value, or spaces, as unset: the defaults apply", () => {
    const empty = Object.fromEntries(ENV_NAMES.map((name) => [name, ""]));
    const spaces = Object.fromEntries(ENV_NAMES.map((name) => [name, "  "]));
    expect(parseEnv(empty)).toEqual(parseEnv({}));
    expect(parseEnv(spaces)).toEqual(parseEnv({}));
    expect(ENV_NAMES).toContain("RATEKEEPER_DEMO");
  });

  // Regression: a bad RATEKEEPER_DEMO read "RATEKEEPER_DEMO: RATEKEEPER_DEMO must be …", and
  // other variables got zod's own words ("Invalid option: expected one of …").
  it("says each problem in one sentence that starts with a variable's name, never twice over", () => {
    for (const name of ENV_NAMES) {
      for (const value of ["nonsense value", "-1", "1.5", "99999999999999999999"]) {
        let problems: readonly string[] = [];
        try {
          parseEnv({ [name]: value });
        } catch (error) {
          if (!(error instanceof EnvError)) throw error;
          problems = error.problems;
        }
        for (const problem of problems) {
          const where = `${name}=${value}: ${problem}`;
          const first = /^[A-Z_]+/.exec(problem)?.[0] ?? "";
          expect(ENV_NAMES, where).toContain(first);
          expect(problem.split(first).length - 1, where).toBe(1);
          expect(problem, where).toContain(name);
          expect(problem, where).not.toMatch(/Invalid (input|option)|Too (big|small)|expected /);
        }
      }
    }
  });

  it("throws an EnvError holding every problem, and a message with all of them", () => {
    try {
      parseEnv({ RATEKEEPER_DEMO: "maybe", PORT: "http" });
      expect.unreachable("the environment was accepted");
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      expect((error as EnvError).problems).toEqual([
        "RATEKEEPER_DEMO must be on (a new database gets a demo customer, and /api/v1/items answers) or off (a production install: neither)",
        "PORT must be a whole number between 1 and 65535",
      ]);
      expect((error as Error).message).toBe(
        `Invalid environment: ${(error as EnvError).problems.join("; ")}`,
      );
    }
  });
});

describe("scheduled backups' settings", () => {
  it("are off by default, and read BACKUP_DIR, BACKUP_INTERVAL (a duration) and BACKUP_KEEP", () => {
    const off = parseEnv({ BACKUP_DIR: " " });
    expect([off.BACKUP_DIR, off.BACKUP_INTERVAL, off.BACKUP_KEEP]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(
      parseEnv({ BACKUP_DIR: "/var/backups/ratekeeper", BACKUP_INTERVAL: "6h", BACKUP_KEEP: "28" }),
    ).toMatchObject({
      BACKUP_DIR: "/var/backups/ratekeeper",
      BACKUP_INTERVAL: 6 * 3_600_000,
      BACKUP_KEEP: 28,
    });
    expect(parseEnv({ BACKUP_DIR: "b", BACKUP_INTERVAL: " 30m " }).BACKUP_INTERVAL).toBe(1_800_000);
    expect(parseEnv({ BACKUP_DIR: "b", BACKUP_INTERVAL: "1m" }).BACKUP_INTERVAL).toBe(60_000);
    expect(parseEnv({ BACKUP_DIR: "b", BACKUP_INTERVAL: "7d" }).BACKUP_INTERVAL).toBe(604_800_000);
  });

  it.each([
    [
      { BACKUP_INTERVAL: "6 hours" },
      'BACKUP_INTERVAL must be a whole number and a unit (s, m, h or d), such as 30m, 6h or 1d; got "6 hours"',
    ],
    [{ BACKUP_INTERVAL: "21600000" }, "BACKUP_INTERVAL must be a whole number and a unit"],
    [{ BACKUP_INTERVAL: "1.5h" }, "BACKUP_INTERVAL must be a whole number and a unit"],
    [{ BACKUP_INTERVAL: "30s" }, 'BACKUP_INTERVAL must be between 1m and 7d; got "30s"'],
    [{ BACKUP_INTERVAL: "8d" }, 'BACKUP_INTERVAL must be between 1m and 7d; got "8d"'],
    [{ BACKUP_INTERVAL: "0m" }, 'BACKUP_INTERVAL must be between 1m and 7d; got "0m"'],
    [{ BACKUP_INTERVAL: "0h" }, 'BACKUP_INTERVAL must be between 1m and 7d; got "0h"'],
    [{ BACKUP_KEEP: "0" }, "BACKUP_KEEP must be at least 1"],
    [{ BACKUP_KEEP: "2.5" }, "BACKUP_KEEP must be a whole number of backups"],
    [{ BACKUP_KEEP: "many" }, "BACKUP_KEEP must be a whole number of backups"],
  ])("refuse %o, naming the variable and what it takes", (source, message) => {
    expect(() => parseEnv({ BACKUP_DIR: "/var/backups/ratekeeper", ...source })).toThrow(message);
  });

  it("tell an edge with BACKUP_KEEP or BACKUP_INTERVAL that scheduled backups are for the full app, never to set BACKUP_DIR", () => {
    for (const name of ["BACKUP_KEEP", "BACKUP_INTERVAL"] as const) {
      const value = name === "BACKUP_KEEP" ? "3" : "6h";
      let message = "";
      try {
        parseEnv({ RATEKEEPER_ROLE: "edge", REDIS_URL: "redis://r:6379", [name]: value });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain(
        `${name} is for the full app's scheduled backups: an edge has no database to back up, so unset it`,
      );
      expect(message).not.toContain("set BACKUP_DIR");
    }
  });

  it("refuse BACKUP_INTERVAL or BACKUP_KEEP without BACKUP_DIR, and BACKUP_DIR on an edge", () => {
    expect(() => parseEnv({ BACKUP_INTERVAL: "6h" })).toThrow(
      "BACKUP_INTERVAL is set without a backup directory: set BACKUP_DIR to turn scheduled backups on, or unset it",
    );
    expect(() => parseEnv({ BACKUP_KEEP: "3" })).toThrow(
      "BACKUP_KEEP is set without a backup directory",
    );
    expect(() =>
      parseEnv({ RATEKEEPER_ROLE: "edge", REDIS_URL: "redis://r:6379", BACKUP_DIR: "/b" }),
    ).toThrow(
      "BACKUP_DIR is for the full app (the control plane): an edge has no database to back up",
    );
  });
});
