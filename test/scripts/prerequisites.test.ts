import { describe, expect, it } from "vitest";
import { DEBIAN_CHROMIUM, type Machine, plan, requirements } from "@/scripts/prerequisites";

function machine(overrides: Partial<Machine> & { files?: string[]; path?: string[] } = {}) {
  const files = new Set(overrides.files ?? []);
  const onPath = new Set(overrides.path ?? []);
  return {
    env: {},
    executable: (p: string) => files.has(p),
    onPath: (c: string) => (onPath.has(c) ? `/usr/bin/${c}` : undefined),
    bundledChromium: () => undefined,
    canInstall: false,
    ...overrides,
  } satisfies Machine;
}

// Regression: on a fresh Debian machine `npm test` failed deep in the suites because Chromium and
// redis-server were missing; only .ci/run installed them.
describe("the test prerequisites", () => {
  it("need nothing when Debian's Chromium and redis-server are there", () => {
    const m = machine({ files: [DEBIAN_CHROMIUM], path: ["redis-server"] });
    const found = requirements(m);
    expect(found.map((r) => r.found)).toEqual([DEBIAN_CHROMIUM, "/usr/bin/redis-server"]);
    expect(plan(found, m)).toEqual({ action: "none" });
  });

  it("install the missing Debian packages as root", () => {
    const m = machine({ canInstall: true, path: ["redis-server"] });
    expect(plan(requirements(m), m)).toEqual({ action: "install", packages: ["chromium"] });
    const bare = machine({ canInstall: true });
    expect(plan(requirements(bare), bare)).toEqual({
      action: "install",
      packages: ["chromium", "redis-server"],
    });
  });

  it("stop with one message naming the packages and the variables otherwise", () => {
    const m = machine({ files: [DEBIAN_CHROMIUM] });
    const decided = plan(requirements(m), m);
    expect(decided.action).toBe("stop");
    const message = decided.action === "stop" ? decided.message : "";
    expect(message).toContain("redis-server");
    expect(message).toContain("REDIS_SERVER_PATH");
    expect(message).not.toContain("CHROMIUM_PATH");
    const noInstall = machine({ canInstall: true, env: { RATEKEEPER_NO_INSTALL: "1" } });
    expect(plan(requirements(noInstall), noInstall).action).toBe("stop");
  });

  it("prefer the variables, and refuse ones that point at nothing", () => {
    const m = machine({
      files: ["/opt/chrome", DEBIAN_CHROMIUM],
      env: { CHROMIUM_PATH: "/opt/chrome", REDIS_SERVER_PATH: "/nowhere/redis-server" },
      canInstall: true,
    });
    const found = requirements(m);
    expect(found[0]?.found).toBe("/opt/chrome");
    const decided = plan(found, m);
    expect(decided.action).toBe("stop");
    expect(decided.action === "stop" && decided.message).toContain(
      "REDIS_SERVER_PATH=/nowhere/redis-server is not an executable file",
    );
  });

  it("accept Playwright's own Chromium when Debian's is absent", () => {
    const m = machine({ path: ["redis-server"], bundledChromium: () => "/root/.cache/chrome" });
    expect(plan(requirements(m), m)).toEqual({ action: "none" });
  });
});
