/** Logger is where the app writes what operators must see (printed secrets, failures). */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, cause?: unknown): void;
}

/** consoleLogger writes to the process's console. */
export const consoleLogger: Logger = {
  info: (message) => console.log(`[ratekeeper] ${message}`),
  warn: (message) => console.warn(`[ratekeeper] ${message}`),
  error: (message, cause) => console.error(`[ratekeeper] ${message}`, cause ?? ""),
};

/** silentLogger discards everything (tests). */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
