import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "@": path.resolve(import.meta.dirname) },
  },
  test: {
    include: ["test/**/*.test.ts"],
    // better-sqlite3 is a native addon: forks isolate it better than worker threads.
    pool: "forks",
    environment: "node",
  },
});
