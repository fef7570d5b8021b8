import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { failedRequest, INTERNAL_ERROR_DETAIL, internalError } from "@/lib/http/internal-error";

/** recorder is a log that keeps what it is told. */
function recorder() {
  const lines: [string, unknown][] = [];
  return { lines, error: (message: string, cause?: unknown) => lines.push([message, cause]) };
}

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** failing serves one request that throws `cause` after `before`, answered by failedRequest. */
async function failing(
  log: ReturnType<typeof recorder>,
  cause: Error,
  before: (response: ServerResponse) => void = () => {},
) {
  const failed = failedRequest(log);
  server = createServer((request, response) => {
    try {
      before(response);
      throw cause;
    } catch (error) {
      failed(request, response, error);
    }
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("internalError", () => {
  it("logs the cause once and answers a 500 problem with none of it", () => {
    const log = recorder();
    const cause = new Error("secret: /var/lib/ratekeeper.db");
    const answer = internalError(log, "GET /x", cause, { RateLimit: "r=1" });
    expect(log.lines).toEqual([["GET /x failed", cause]]);
    expect(answer.status).toBe(500);
    expect(answer.headers).toEqual({
      "Content-Type": "application/problem+json",
      RateLimit: "r=1",
    });
    expect(answer.body).toBe(
      JSON.stringify({
        type: "about:blank",
        title: "Internal error",
        status: 500,
        detail: INTERNAL_ERROR_DETAIL,
      }),
    );
  });
});

describe("failedRequest", () => {
  it("writes the 500 on node:http and logs the path without its query", async () => {
    const log = recorder();
    const url = await failing(log, new Error("secret"));
    const res = await fetch(`${url}/api/v1/decisions?token=hidden`, { method: "POST" });
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const text = await res.text();
    expect(text).not.toContain("secret");
    expect(JSON.parse(text)).toMatchObject({ title: "Internal error", status: 500 });
    expect(log.lines.map(([line]) => line)).toEqual(["POST /api/v1/decisions failed"]);
  });

  it("cuts the connection when part of an answer has gone out", async () => {
    const log = recorder();
    const url = await failing(log, new Error("late"), (response) => {
      response.writeHead(200, { "Content-Type": "text/plain" });
      response.write("half");
    });
    // No 500 may follow the 200 already begun: the client sees its connection cut.
    await expect(fetch(url).then((res) => res.text())).rejects.toThrow();
    expect(log.lines).toHaveLength(1);
  });
});
