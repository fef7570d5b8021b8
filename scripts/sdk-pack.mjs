// `npm run sdk:pack`: builds @ratekeeper/client (sdk/) and packs it as dist/ratekeeper-client-<version>.tgz,
// the file another project installs it from (`npm install /path/to/ratekeeper/dist/ratekeeper-client-<version>.tgz`).
// npm pack runs the package's prepack script, which builds sdk/dist first.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const destination = path.join(root, "dist");
mkdirSync(destination, { recursive: true });
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const packed = spawnSync(
  npm,
  ["pack", "./sdk", "--pack-destination", destination, "--json", "--loglevel=warn"],
  { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
);
if (packed.status !== 0) {
  process.stderr.write(packed.stdout ?? "");
  console.error(`npm pack ./sdk failed (exit ${packed.status ?? packed.signal})`);
  process.exit(1);
}
// The JSON (an array, opening at the start of a line) follows whatever the prepack build printed.
const [result] = JSON.parse(packed.stdout.slice(packed.stdout.search(/^\[/m)));
const file = path.join(destination, result.filename);
console.log(`Packed ${result.name}@${result.version}: ${path.relative(process.cwd(), file)}`);
console.log(`Install it in your project with: npm install ${file}`);
