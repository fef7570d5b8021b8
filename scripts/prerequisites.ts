// What `npm test` needs beyond node_modules: a Chromium for the end-to-end suite and a
// redis-server for the Redis tests. Pure decisions here (tested); scripts/check-prerequisites.ts
// looks at the machine and acts on them.

/** Machine is what the check may learn about the machine it runs on. */
export interface Machine {
  env: Record<string, string | undefined>;
  /** executable tells whether a path names an executable file. */
  executable(path: string): boolean;
  /** onPath returns the full path of a command found on PATH, or undefined. */
  onPath(command: string): string | undefined;
  /** bundledChromium is Playwright's own downloaded Chromium, when one is installed. */
  bundledChromium(): string | undefined;
  /** canInstall: running as root on a machine with apt-get. */
  canInstall: boolean;
}

/** Requirement is one thing the tests need: where it was found, or the Debian package that has it. */
export interface Requirement {
  name: string;
  found?: string;
  /** problem is set when a variable points at nothing usable: installing would not help. */
  problem?: string;
  debianPackage: string;
  variable: string;
}

/** DEBIAN_CHROMIUM is where Debian's chromium package puts the browser. */
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

function fromVariable(machine: Machine, variable: string): Pick<Requirement, "found" | "problem"> {
  const path = machine.env[variable];
  if (!path) return {};
  return machine.executable(path)
    ? { found: path }
    : { problem: `${variable}=${path} is not an executable file` };
}

/** requirements finds Chromium and redis-server the way the test suites will look for them. */
export function requirements(machine: Machine): Requirement[] {
  const chromium = fromVariable(machine, "CHROMIUM_PATH");
  if (!chromium.found && !chromium.problem) {
    chromium.found = machine.executable(DEBIAN_CHROMIUM)
      ? DEBIAN_CHROMIUM
      : machine.bundledChromium();
  }
  const redis = fromVariable(machine, "REDIS_SERVER_PATH");
  if (!redis.found && !redis.problem) redis.found = machine.onPath("redis-server");
  return [
    { name: "Chromium", debianPackage: "chromium", variable: "CHROMIUM_PATH", ...chromium },
    {
      name: "redis-server",
      debianPackage: "redis-server",
      variable: "REDIS_SERVER_PATH",
      ...redis,
    },
  ];
}

/** Plan is what the check does: nothing, install Debian packages, or stop with a message. */
export type Plan =
  | { action: "none" }
  | { action: "install"; packages: string[] }
  | { action: "stop"; message: string };

/** plan decides what to do about the requirements found on a machine. */
export function plan(found: Requirement[], machine: Pick<Machine, "canInstall" | "env">): Plan {
  const broken = found.filter((r) => r.problem);
  if (broken.length > 0) {
    return {
      action: "stop",
      message: broken.map((r) => `${r.problem}; unset it or point it at ${r.name}.`).join("\n"),
    };
  }
  const missing = found.filter((r) => !r.found);
  if (missing.length === 0) return { action: "none" };
  const packages = missing.map((r) => r.debianPackage);
  if (machine.canInstall && machine.env.RATEKEEPER_NO_INSTALL !== "1") {
    return { action: "install", packages };
  }
  const lines = missing.map(
    (r) => `- ${r.name}: install Debian's ${r.debianPackage}, or set ${r.variable} to its path`,
  );
  return {
    action: "stop",
    message: [
      "npm test needs these, and they are missing:",
      ...lines,
      `As root: apt-get install -y ${packages.join(" ")}`,
    ].join("\n"),
  };
}
