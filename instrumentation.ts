/** STORE_WAIT_MS bounds how long the start waits for Redis: past it, the failure policy applies. */
const STORE_WAIT_MS = 3_000;

/**
 * register runs once when the server starts: open (and migrate, and on a new database seed) the
 * database now, so the one-time secrets are printed at start rather than at the first request;
 * with REDIS_URL, wait a little for Redis so the first requests decide on it.
 */
export async function register(): Promise<void> {
  if (
    process.env.NEXT_RUNTIME === "nodejs" &&
    process.env.NEXT_PHASE !== "phase-production-build"
  ) {
    const { getRuntime } = await import("./lib/runtime");
    const runtime = getRuntime();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = await Promise.race([
      runtime.ready().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), STORE_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!waited) {
      runtime.log.warn(
        `The bucket store was not ready after ${STORE_WAIT_MS / 1000} s; serving anyway, under the failure policy.`,
      );
    }
  }
}
