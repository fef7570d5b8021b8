import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { apiVary, isApiTarget, plainApiHead } from "@/lib/http/api-head";

type Middleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;
/** compression is the middleware Next compresses its answers with (it adds Vary: Accept-Encoding). */
const compression = createRequire(import.meta.url)(
  "next/dist/compiled/compression",
) as () => Middleware;

/** NEXT_VARY is the Vary Next sets on every answer of an app route, route handlers included. */
const NEXT_VARY = "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch";

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/**
 * serveLikeNext answers as the server entry and Next do: the entry's plainApiHead for /api, then
 * Next's compression and router Vary, then the route's answer (`route` sets its own headers).
 */
async function serveLikeNext(
  route: (response: ServerResponse) => void = () => {},
): Promise<string> {
  const compress = compression();
  const server = createServer((request, response) => {
    if (isApiTarget(request.url ?? "/")) plainApiHead(response);
    compress(request, response, () => {});
    response.setHeader("vary", [NEXT_VARY]);
    response.setHeader("content-type", "application/json");
    route(response);
    response.end(JSON.stringify({ plans: "x".repeat(2_000) }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("apiVary", () => {
  it("drops Next's router headers, any case, and keeps the others in order", () => {
    expect(apiVary(NEXT_VARY)).toBeNull();
    expect(apiVary([NEXT_VARY, "Accept-Encoding"])).toBe("Accept-Encoding");
    expect(apiVary("Origin, RSC, Next-Url, Accept-Encoding")).toBe("Origin, Accept-Encoding");
    expect(apiVary(" , ")).toBeNull();
  });
});

describe("isApiTarget", () => {
  it("tells the API's targets from pages'", () => {
    for (const target of ["/api", "/api/admin/plans", "/api/v1/items?limit=2", "/api?x"])
      expect(isApiTarget(target), target).toBe(true);
    for (const target of ["/", "/apis", "/plans", "/api-docs", "/login?next=/api/x"])
      expect(isApiTarget(target), target).toBe(false);
  });
});

describe("plainApiHead", () => {
  // Regression: JSON answers of Next's route handlers carried `Vary: rsc, next-router-state-tree,
  // …` (what a page's payload depends on, never an API answer) and no Cache-Control at all.
  it("gives an API answer written by Next a Vary of what it depends on, and no-store", async () => {
    const url = await serveLikeNext();
    const compressed = await fetch(`${url}/api/admin/plans`, {
      headers: { "accept-encoding": "gzip" },
    });
    expect(compressed.headers.get("vary")).toBe("Accept-Encoding");
    expect(compressed.headers.get("cache-control")).toBe("no-store");
    expect((await compressed.json()).plans).toHaveLength(2_000);
  });

  it("keeps a Cache-Control the route set, and leaves a page's head as Next wrote it", async () => {
    const url = await serveLikeNext((response) => response.setHeader("Cache-Control", "private"));
    const api = await fetch(`${url}/api/admin/usage.csv`);
    expect(api.headers.get("cache-control")).toBe("private");
    const page = await fetch(`${url}/plans`);
    expect(page.headers.get("vary")).toBe(`${NEXT_VARY}, Accept-Encoding`);
  });

  it("removes Vary when nothing but Next's router headers was in it", async () => {
    const server = createServer((_request, response) => {
      plainApiHead(response);
      response.setHeader("vary", NEXT_VARY);
      response.writeHead(204).end();
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    closers.push(() => {
      server.closeAllConnections();
      server.close();
    });
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/x`);
    expect(res.status).toBe(204);
    expect(res.headers.has("vary")).toBe(false);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});
