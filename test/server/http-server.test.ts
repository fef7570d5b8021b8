import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer, KEEP_ALIVE_TIMEOUT_MS } from "@/server/http-server";

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe("createHttpServer", () => {
  // Regression: with Node's 5 s default, a client reusing an idle connection while a busy event
  // loop fired the server's timer got ECONNRESET (seen in the e2e suite under load).
  it("keeps idle connections longer than the proxies in front (60 s) and tells clients so", async () => {
    const server = createHttpServer((_request, response) => response.end("ok"));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
      request({ host: "127.0.0.1", port, headers: { connection: "keep-alive" } }, (response) => {
        response.resume();
        const field = response.headers["keep-alive"];
        resolve(typeof field === "string" ? field : undefined);
      })
        .on("error", reject)
        .end();
    });
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(keepAlive).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
  });
});
