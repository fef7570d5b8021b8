import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Cluster } from "ioredis";
import { type RedisServer, startRedisServer } from "./redis-server";

/** RedisCluster is a Redis Cluster of primaries the tests started on loopback ports. */
export interface RedisCluster {
  servers: RedisServer[];
  /** client opens a Cluster client (closed by `close`). */
  client(): Cluster;
  close(): Promise<void>;
}

const SLOTS = 16_384;

/**
 * startRedisCluster starts `size` redis-servers in cluster mode, splits the 16,384 hash slots
 * between them, introduces them to each other and waits until every node says the cluster is ok.
 */
export async function startRedisCluster(size = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ratekeeper-cluster-"));
  const servers: RedisServer[] = [];
  const clients: Cluster[] = [];
  const close = async () => {
    for (const client of clients.splice(0)) client.disconnect();
    for (const server of servers) await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < size; i++) {
      servers.push(
        await startRedisServer([
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          path.join(dir, `nodes-${i}.conf`),
          "--dir",
          dir,
        ]),
      );
    }
    const nodes = servers.map((server) => server.client());
    for (const [i, node] of nodes.entries()) {
      const first = Math.floor((SLOTS * i) / size);
      const last = Math.floor((SLOTS * (i + 1)) / size) - 1;
      await node.call("CLUSTER", "ADDSLOTSRANGE", String(first), String(last));
    }
    for (const server of servers.slice(1)) {
      await nodes[0]?.call("CLUSTER", "MEET", "127.0.0.1", String(server.port));
    }
    const deadline = Date.now() + 10_000;
    for (;;) {
      const infos = await Promise.all(nodes.map((node) => node.call("CLUSTER", "INFO")));
      if (infos.every((info) => String(info).includes("cluster_state:ok"))) break;
      if (Date.now() > deadline) throw new Error("the test cluster did not become ok in 10 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    servers,
    client() {
      const client = new Cluster(
        servers.map((server) => ({ host: "127.0.0.1", port: server.port })),
      );
      clients.push(client);
      return client;
    },
    close,
  };
}
