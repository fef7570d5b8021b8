import { once } from "node:events";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/** Seen is one request as the upstream received it, body included. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Upstream is an HTTP server a gateway test fronts: it records what reaches it. */
export interface Upstream {
  url: string;
  port: number;
  /** started counts requests whose head arrived; `seen` those whose body arrived in full. */
  started(): number;
  seen: Seen[];
  close(): Promise<void>;
}

/** Handler answers one request the upstream received (its body already read, unless `streaming`). */
export type UpstreamHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  seen: Seen,
) => void;

/**
 * startUpstream runs an upstream on 127.0.0.1 and a free port. By default it answers every
 * request 200 with what it received as JSON; `handler` replaces that. With `streaming`, the
 * handler gets the request before its body is read (and must read it).
 */
export async function startUpstream(
  handler?: UpstreamHandler,
  options: { streaming?: boolean } = {},
): Promise<Upstream> {
  const seen: Seen[] = [];
  let started = 0;
  const server = createServer((request, response) => {
    started++;
    const record: Seen = {
      method: request.method ?? "",
      url: request.url ?? "",
      headers: request.headers,
      body: "",
    };
    if (options.streaming && handler) return handler(request, response, record);
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      record.body = Buffer.concat(chunks).toString("utf8");
      seen.push(record);
      if (handler) return handler(request, response, record);
      const body = JSON.stringify(record);
      response.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
      });
      response.end(body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    started: () => started,
    seen,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
