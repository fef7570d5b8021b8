import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { Redis } from "ioredis";

/** RedisServer is a redis-server the tests started on a loopback port, with no persistence. */
export interface RedisServer {
  port: number;
  url: string;
  /** client opens a new client on the server (closed by `close`), its connection errors ignored. */
  client(): Redis;
  /** stop kills the server (SIGKILL: it saves nothing) and waits for it to exit. */
  stop(): Promise<void>;
  /** start starts it again on the same port, empty, and waits until it accepts connections. */
  start(): Promise<void>;
  /**
   * freeze stops the server with SIGSTOP: connections stay open, commands wait in their sockets
   * and run, in order, once it is thawed (`thaw`, SIGCONT), as when Redis hangs.
   */
  freeze(): void;
  /** thaw resumes a frozen server (SIGCONT). */
  thaw(): void;
  /** close disconnects the clients `client` opened and stops the server. */
  close(): Promise<void>;
}

const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? "redis-server";

/** freePort asks the OS for a loopback port that is free now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

/** waitForPort resolves once something accepts TCP connections on the port (5 s at most). */
async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port} in 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * startRedisServer runs Debian's redis-server (or REDIS_SERVER_PATH) on a free loopback port.
 * It fails, never skips, when the binary is missing: `.ci/run` installs it.
 */
export async function startRedisServer(extraArgs: string[] = []): Promise<RedisServer> {
  const port = await freePort();
  const clients: Redis[] = [];
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    // Already running: a second server could not bind the port, and the first would answer.
    if (child && child.exitCode === null) return;
    const proc = spawn(
      REDIS_SERVER,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        ...extraArgs,
      ],
      { stdio: "ignore" },
    );
    const failed = new Promise<never>((_, reject) => {
      proc.once("error", (error) =>
        reject(new Error(`could not start ${REDIS_SERVER}: ${error.message}`)),
      );
    });
    child = proc;
    // A worker that dies before afterAll must not leave a server behind.
    const killOnExit = () => proc.kill("SIGKILL");
    process.once("exit", killOnExit);
    proc.once("exit", () => process.off("exit", killOnExit));
    await Promise.race([waitForPort(port, proc), failed]);
  }

  async function kill(): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = once(proc, "exit");
    proc.kill("SIGKILL");
    await exited;
  }

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    client() {
      const client = new Redis({ port, host: "127.0.0.1", lazyConnect: false });
      // While a test stops the server, the client reconnects; without a listener ioredis prints
      // each failed attempt as "[ioredis] Unhandled error event".
      client.on("error", () => {});
      clients.push(client);
      return client;
    },
    stop: kill,
    start,
    freeze() {
      if (!child || child.exitCode !== null) throw new Error("redis-server is not running");
      child.kill("SIGSTOP");
    },
    thaw() {
      if (!child || child.exitCode !== null) throw new Error("redis-server is not running");
      child.kill("SIGCONT");
    },
    async close() {
      for (const client of clients.splice(0)) client.disconnect();
      await kill();
    },
  };
}
