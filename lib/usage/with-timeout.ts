/**
 * withTimeout settles as `promise` does, or rejects with "<what> timed out after <ms> ms" if it
 * has not settled `ms` milliseconds from now. The promise itself runs on; its late failure (a
 * connection closed after the timeout) is dropped rather than left unhandled.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  promise.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
