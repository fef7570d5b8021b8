import { Cluster } from "ioredis";
import type { RedisClient, RedisKey } from "./buckets";

/**
 * bucketPattern is the glob pattern that matches every bucket of `key` (or, without a key, of the prefix). With
 * a key it also matches keys that continue it with "}:" (key "a" matches "rk:{a}:x}:1/1" of key
 * "a}:x"): `forget` filters those out. Without one, the "{" stops prefix "rk" matching "rk:x".
 */
export function bucketPattern(prefix: string, key?: RedisKey): string {
  const glob = (text: string) => text.replace(/[*?[\]\\]/g, "\\$&");
  return key === undefined ? `${glob(prefix)}:{*` : `${glob(prefix)}:{${glob(String(key))}}:*`;
}

/**
 * deleteMatching deletes the keys that match `pattern` (and pass `keep`) and returns how many it
 * deleted. On a Cluster it scans every primary and deletes key by key, since one DEL may name
 * keys of one slot only.
 */
export async function deleteMatching(
  redis: RedisClient,
  pattern: string,
  keep: (key: string) => boolean = () => true,
): Promise<number> {
  const nodes = redis instanceof Cluster ? redis.nodes("master") : [redis];
  let deleted = 0;
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, found] = await node.scan(cursor, "MATCH", pattern, "COUNT", 1000);
      cursor = next;
      const keys = found.filter(keep);
      if (redis instanceof Cluster) {
        for (const key of keys) deleted += await node.del(key);
      } else if (keys.length > 0) {
        deleted += await node.del(...keys);
      }
    } while (cursor !== "0");
  }
  return deleted;
}
