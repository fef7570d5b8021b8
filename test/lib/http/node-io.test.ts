import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpAnswer, problemAnswer } from "@/lib/http/answer";
import { writeAnswer } from "@/lib/http/node-io";
import { toResponse } from "@/lib/http/response";
import { API_SECURITY_HEADERS } from "@/lib/http/security-headers";

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** served answers one request with `answer` through writeAnswer, after `before` ran. */
async function served(answer: HttpAnswer, before: (response: ServerResponse) => void = () => {}) {
  server = createServer((_request, response) => {
    before(response);
    writeAnswer(response, answer);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return fetch(`http://127.0.0.1:${port}/`);
}

describe("writeAnswer", () => {
  it("writes the same status and bytes as toResponse, never to be cached", async () => {
    const answer = problemAnswer(409, "Conflict", { detail: "Ünïcode" }, { "Retry-After": "2" });
    const viaNode = await served(answer);
    const viaFetch = toResponse(answer);
    expect(viaNode.status).toBe(viaFetch.status);
    expect(await viaNode.text()).toBe(await viaFetch.text());
    expect(viaNode.headers.get("content-type")).toBe("application/problem+json");
    expect(viaNode.headers.get("retry-after")).toBe("2");
    expect(viaNode.headers.get("cache-control")).toBe("no-store");
    expect(viaNode.headers.get("content-length")).toBe(String(Buffer.byteLength(answer.body)));
  });

  it("sets the API security headers on an answer the entry has not secured", async () => {
    const res = await served(problemAnswer(400, "Bad"));
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS))
      expect(res.headers.get(name), name).toBe(value);
  });

  it("keeps the security headers the server entry set before it, in one place", async () => {
    const res = await served(problemAnswer(400, "Bad"), (response) => {
      response.setHeader("Content-Security-Policy", "default-src 'self'");
      response.setHeader("Permissions-Policy", "camera=()");
    });
    expect(res.headers.get("content-security-policy")).toBe("default-src 'self'");
    expect(res.headers.get("permissions-policy")).toBe("camera=()");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("lets an answer's own fields replace the defaults, each sent once", async () => {
    const res = await served({
      status: 404,
      headers: {
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
        "Cache-Control": "max-age=60",
        "Content-Type": "text/html",
      },
      body: "<p>gone</p>",
    });
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'",
    );
    expect(res.headers.get("cache-control")).toBe("max-age=60");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("closes the connection after a 413", async () => {
    const res = await served(problemAnswer(413, "Body too large"));
    expect(res.headers.get("connection")).toBe("close");
  });
});
