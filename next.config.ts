import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // better-sqlite3 is a native addon: load it from node_modules at run time, never bundle it.
  serverExternalPackages: ["better-sqlite3"],
  poweredByHeader: false,
  // Lets two builds live side by side (parallel e2e runs on one checkout); ".next" by default.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // `npm test` type-checks the whole tree (tsc --noEmit) before anything else; the build need
  // not repeat it, and tests in progress must not block a build.
  typescript: { ignoreBuildErrors: true },
  // The icon is app/icon.svg; browsers still probe /favicon.ico now and then. Regression: the
  // probe answered 404, which Chromium logs as a console error, failing e2e specs at random.
  async redirects() {
    return [{ source: "/favicon.ico", destination: "/icon.svg", permanent: true }];
  },
};

export default nextConfig;
