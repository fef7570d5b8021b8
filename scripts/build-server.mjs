// Bundles the server entry (server/main.ts and the lib/ code it uses) into dist/server.mjs for
// `npm start`. Packages stay external: they load from node_modules at run time, as Next's do.
import { build } from "esbuild";

await build({
  entryPoints: ["server/main.ts"],
  outfile: "dist/server.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: "tsconfig.json",
  sourcemap: true,
  logLevel: "warning",
});
