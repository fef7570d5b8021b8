/**
 * DigestMemo remembers the digests of the last `capacity` secrets presented (API keys, service
 * tokens), keyed by the secret: a decision then digests a key it has seen recently with one Map
 * lookup instead of a SHA-256. The oldest entry goes first when it is full, so a flood of
 * distinct (or made-up) keys costs one digest each, as without it, and never grows the memory
 * past `capacity` entries. What it keeps is what the process already reads in every request; the
 * database and the policy snapshot keep only digests.
 */
export class DigestMemo {
  private readonly digests = new Map<string, string>();

  constructor(
    private readonly capacity: number,
    private readonly digestOf: (secret: string) => string,
  ) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError(`DigestMemo needs a capacity of at least 1, got ${capacity}`);
    }
  }

  /** digest returns `digestOf(secret)`, remembered. */
  digest(secret: string): string {
    let digest = this.digests.get(secret);
    if (digest === undefined) {
      digest = this.digestOf(secret);
      if (this.digests.size >= this.capacity) {
        // A Map iterates in insertion order: its first key is the oldest.
        this.digests.delete(this.digests.keys().next().value as string);
      }
      this.digests.set(secret, digest);
    }
    return digest;
  }

  /** size is how many digests it holds (at most `capacity`). */
  get size(): number {
    return this.digests.size;
  }
}
