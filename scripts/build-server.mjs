// Bundles the server entry (server/main.ts and the lib/ code it uses) into dist/server.mjs for
// `npm start`, and beside it dist/backup-worker.mjs, the worker thread scheduled backups run in
// (lib/backup/backup-in-worker.ts finds it there). Packages stay external: they load from
// node_modules at run time, as Next's do. server/main.ts imports the role's entry dynamically:
// split into chunks, an edge never loads the full app's modules (nor SQLite's packages).
import { build } from "esbuild";

await build({
  entryPoints: { server: "server/main.ts", "backup-worker": "lib/backup/backup-worker.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: "tsconfig.json",
  sourcemap: true,
  logLevel: "warning",
});
