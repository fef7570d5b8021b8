// Runs first in `npm test`: finds Chromium and redis-server; as root with apt-get it installs
// what is missing from Debian's packages, otherwise it stops at once with one message saying
// which packages to install or which variables to set (CHROMIUM_PATH, REDIS_SERVER_PATH).
import { execFileSync, spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { type Machine, plan, requirements } from "./prerequisites";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, command);
    if (dir && executable(candidate)) return candidate;
  }
  return undefined;
}

async function bundledChromium(): Promise<string | undefined> {
  try {
    const { chromium } = await import("@playwright/test");
    const path = chromium.executablePath();
    return executable(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

const bundled = await bundledChromium();
const machine: Machine = {
  env: process.env,
  executable,
  onPath,
  bundledChromium: () => bundled,
  canInstall: process.getuid?.() === 0 && onPath("apt-get") !== undefined,
};

const found = requirements(machine);
const decided = plan(found, machine);
if (decided.action === "stop") {
  console.error(`\n${decided.message}\n`);
  process.exit(1);
}
if (decided.action === "install") {
  console.log(`Installing ${decided.packages.join(" ")} from Debian's packages (once)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  const install = spawnSync("apt-get", ["install", "-y", "-qq", ...decided.packages], {
    stdio: ["ignore", "ignore", "inherit"],
    env,
  });
  const after = requirements({ ...machine, bundledChromium: () => bundled });
  const still = after.filter((r) => !r.found);
  if (install.status !== 0 || still.length > 0) {
    console.error(
      `\nCould not install ${decided.packages.join(" ")} (apt-get exit ${install.status}); ` +
        "install them by hand, or set CHROMIUM_PATH and REDIS_SERVER_PATH.\n",
    );
    process.exit(1);
  }
}
for (const r of requirements(machine)) console.log(`${r.name}: ${r.found}`);
