import { createHash, randomBytes } from "node:crypto";
import type { RedisClient } from "@/lib/limiter-redis";
import { POLICY_ROWS_FORMAT } from "@/lib/schemas/policy-rows.schema";

/**
 * SnapshotStamp identifies one write of the policy snapshot in Redis: the key's generation
 * (random, chosen when the key is created: a Redis that lost its data starts a new one) and its
 * version (1 for the generation's first write, one more for each accepted write). An edge holds
 * the stamp of what it loaded; any other stamp in Redis is newer.
 */
export interface SnapshotStamp {
  generation: string;
  version: number;
}

/** StoredSnapshot is the snapshot as Redis holds it: its stamp, revision, time and rows' text. */
export interface StoredSnapshot extends SnapshotStamp {
  /** revision is the database's revision the rows were read at (see PolicyState). */
  revision: number;
  /** writtenAt is when the control plane wrote it (ms since the epoch, its clock). */
  writtenAt: number;
  /** rows is the JSON text of `encodePolicyRows`. */
  rows: string;
}

/**
 * SnapshotHead is what the control plane checks of the snapshot Redis holds, without its rows:
 * its stamp, the revision its rows were read at and their format (0 when the writer did not
 * say: an earlier version, whose rows are format 1 or older).
 */
export interface SnapshotHead extends SnapshotStamp {
  revision: number;
  format: number;
}

/** SnapshotWrite says whether a write was accepted, and the stamp Redis holds after it. */
export interface SnapshotWrite {
  /** written is false when Redis already held rows of a later revision (kept, not replaced). */
  written: boolean;
  stamp: SnapshotStamp;
}

/**
 * snapshotKey names the hash holding the snapshot: `<prefix>:{policy}:snapshot`. The braces are
 * a Redis Cluster hash tag, so the snapshot and its stamp are one key in one slot.
 */
export function snapshotKey(prefix: string): string {
  return `${prefix}:{policy}:snapshot`;
}

/**
 * WRITE stores a snapshot and stamps it, in one script run (atomic: a reader sees the old rows
 * and stamp, or the new ones). Unless forced, it refuses rows older than those already stored:
 * read at an older revision of the database (an instance that read SQLite just before another's
 * edit must not undo it), or at the same revision in an older format (a control plane of an
 * earlier version must not undo a later one's rewrite). A stored revision that is not a number
 * counts as none. It writes the rows, their format, then the version: HINCRBY, so versions grow
 * by one per accepted write. KEYS[1]: the hash; ARGV: revision, rows, writtenAt, a generation
 * for a new key, "force" or "", format.
 * Reply: {1 or 0 (written or refused), generation, version}.
 */
const WRITE = `
local stored = tonumber(redis.call('HGET', KEYS[1], 'revision') or '')
if ARGV[5] ~= 'force' and stored then
  local ours = tonumber(ARGV[1])
  local format = tonumber(redis.call('HGET', KEYS[1], 'format') or '') or 0
  if stored > ours or (stored == ours and format > tonumber(ARGV[6])) then
    return {0, redis.call('HGET', KEYS[1], 'generation'), tonumber(redis.call('HGET', KEYS[1], 'version'))}
  end
end
redis.call('HSETNX', KEYS[1], 'generation', ARGV[4])
redis.call('HSET', KEYS[1], 'revision', ARGV[1], 'rows', ARGV[2], 'writtenAt', ARGV[3], 'format', ARGV[6])
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
return {1, redis.call('HGET', KEYS[1], 'generation'), version}
`;
const WRITE_SHA = createHash("sha1").update(WRITE).digest("hex");

/** ScriptCalls are the EVALSHA and EVAL forms ioredis defines on Redis and Cluster clients. */
interface ScriptCalls {
  evalsha(sha: string, numkeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  eval(script: string, numkeys: number, ...keysAndArgs: string[]): Promise<unknown>;
}

function positiveInteger(text: string | null): number | undefined {
  const value = Number(text);
  return text !== null && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * RedisSnapshots reads and writes the policy snapshot in Redis: the control plane writes it
 * (`write`) at start and after every committed edit, edges read it (`read`) and compare stamps
 * (`readStamp`) to tell whether they hold the latest. Calls reject when Redis does.
 */
export class RedisSnapshots {
  readonly key: string;
  private lastError: string | undefined;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.key = snapshotKey(prefix);
    // Why the connection is not open, for an edge to say while it waits (ioredis retries alone).
    redis.on("error", (error: unknown) => {
      this.lastError = error instanceof Error ? error.message : String(error);
    });
    redis.on("ready", () => {
      this.lastError = undefined;
    });
  }

  /** connected says whether the command connection is open and ready: calls fail fast otherwise. */
  get connected(): boolean {
    return this.redis.status === "ready";
  }

  /** connectionError is the last error of the connection since it was last ready, if any. */
  get connectionError(): string | undefined {
    return this.lastError;
  }

  /**
   * write stores `rows` (encoded) read at `revision`, at `writtenAt` (ms), unless Redis holds
   * rows of a later revision; `force` writes them regardless (a control plane's first write:
   * its database is the truth, even one restored from a backup with fewer audit entries).
   * `format` is the rows' format (this version's by default; tests write others).
   */
  async write(
    rows: string,
    revision: number,
    writtenAt: number,
    force = false,
    format: number = POLICY_ROWS_FORMAT,
  ): Promise<SnapshotWrite> {
    const client = this.redis as unknown as ScriptCalls;
    const args = [
      this.key,
      String(revision),
      rows,
      String(writtenAt),
      newGeneration(),
      force ? "force" : "",
      String(format),
    ];
    const reply = await client.evalsha(WRITE_SHA, 1, ...args).catch((error: unknown) => {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return client.eval(WRITE, 1, ...args);
    });
    const [written, generation, version] = reply as [number, string, number];
    return { written: written === 1, stamp: { generation, version } };
  }

  /** readStamp returns the stamp of the snapshot Redis holds, or null when it holds none. */
  async readStamp(): Promise<SnapshotStamp | null> {
    const [generation, version] = await this.redis.hmget(this.key, "generation", "version");
    const v = positiveInteger(version ?? null);
    return generation && v !== undefined ? { generation, version: v } : null;
  }

  /**
   * readHead returns the stamp, revision and format of the snapshot Redis holds (one HMGET of
   * four small fields), or null when it holds none or its revision is not a number.
   */
  async readHead(): Promise<SnapshotHead | null> {
    const [generation, version, revision, format] = await this.redis.hmget(
      this.key,
      "generation",
      "version",
      "revision",
      "format",
    );
    const v = positiveInteger(version ?? null);
    const r = revision == null || revision === "" ? Number.NaN : Number(revision);
    if (!generation || v === undefined || !Number.isSafeInteger(r)) return null;
    const f = Number(format ?? 0);
    return { generation, version: v, revision: r, format: Number.isSafeInteger(f) ? f : 0 };
  }

  /** read returns the snapshot Redis holds, or null when it holds none (or not a whole one). */
  async read(): Promise<StoredSnapshot | null> {
    const [generation, version, revision, writtenAt, rows] = await this.redis.hmget(
      this.key,
      "generation",
      "version",
      "revision",
      "writtenAt",
      "rows",
    );
    const v = positiveInteger(version ?? null);
    if (!generation || v === undefined || rows == null) return null;
    return {
      generation,
      version: v,
      revision: Number(revision ?? 0),
      writtenAt: Number(writtenAt ?? 0),
      rows,
    };
  }
}

/** sameStamp says whether two stamps name the same write. */
export function sameStamp(a: SnapshotStamp | undefined | null, b: SnapshotStamp | null): boolean {
  return a != null && b !== null && a.generation === b.generation && a.version === b.version;
}

/** newGeneration is a random name for a new key's generation: 12 hex digits. */
function newGeneration(): string {
  return randomBytes(6).toString("hex");
}
