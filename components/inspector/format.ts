/**
 * formatWait writes a bucket's retry-after for people: 0 -> "none" (a token is there), a
 * negative or null value -> "never" (the request can never fit), else seconds or minutes.
 */
export function formatWait(ms: number | null): string {
  if (ms === null || ms < 0) return "never";
  if (ms === 0) return "none";
  if (ms < 1_000) return `${Math.ceil(ms)} ms`;
  if (ms < 60_000) return `${(Math.ceil(ms / 100) / 10).toFixed(1)} s`;
  const totalSeconds = Math.ceil(ms / 1_000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  return seconds > 0 ? `${minutes} min ${seconds} s` : `${minutes} min`;
}
