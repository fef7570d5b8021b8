import type { Server } from "node:http";
import type { Logger } from "@/lib/log";

/** STOP_GRACE_MS bounds how long a stop waits for open connections before it flushes and exits. */
const STOP_GRACE_MS = 10_000;

/** Stoppable is what a stop closes after the listener: the runtime, with its log. */
export interface Stoppable {
  log: Logger;
  /** shutdown flushes what memory still holds (usage counts) and closes. */
  shutdown(): Promise<void>;
}

/**
 * stopOnSignals makes SIGTERM and SIGINT close the listener, wait for the requests in flight
 * (at most STOP_GRACE_MS), then flush the usage counts still in memory and close the runtime
 * before exiting: what a stop loses is nothing, where a crash loses at most the last flush
 * interval's counts. The full app and an edge stop alike.
 */
export function stopOnSignals(server: Server, runtime: Stoppable): void {
  let stopping = false;
  async function stop(signal: NodeJS.Signals): Promise<void> {
    if (stopping) return;
    stopping = true;
    runtime.log.info(`${signal}: closing.`);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections would hold close() open; end the idle ones, and give up waiting later.
    server.closeIdleConnections();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      closed,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    try {
      await runtime.shutdown();
    } catch (cause) {
      runtime.log.error("Closing failed", cause);
    }
    process.exit(0);
  }
  process.on("SIGTERM", (signal) => void stop(signal));
  process.on("SIGINT", (signal) => void stop(signal));
}
