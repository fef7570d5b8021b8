/**
 * ServiceTokenUses keeps each service token's last use in memory, so a decision never writes
 * SQLite: `touch` is a map write. This is all an edge has (it has no database); the control
 * plane's ServiceTokenUsage also writes them now and then. Times are ms since the epoch.
 */
export class ServiceTokenUses {
  /** seen is each token's last use this process saw, by token id. */
  protected readonly seen = new Map<number, number>();

  /** touch records a use of token `id` at `now`. */
  touch(id: number, now: number): void {
    this.seen.set(id, now);
  }

  /** lastUsed is the last use this process saw of token `id` (ms), if any. */
  lastUsed(id: number): number | undefined {
    return this.seen.get(id);
  }

  /** forget drops what is held for a token (revoked: it will not be used again). */
  forget(id: number): void {
    this.seen.delete(id);
  }
}
