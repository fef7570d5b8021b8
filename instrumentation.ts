/**
 * register runs once when the server starts: open (and migrate, and on a new database seed) the
 * database now, so the one-time secrets are printed at start rather than at the first request.
 */
export async function register(): Promise<void> {
  if (
    process.env.NEXT_RUNTIME === "nodejs" &&
    process.env.NEXT_PHASE !== "phase-production-build"
  ) {
    const { getRuntime } = await import("./lib/runtime");
    getRuntime();
  }
}
