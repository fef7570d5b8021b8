import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createServiceToken } from "@/lib/admin/service-tokens";
import { createDataPlane, type DataPlaneOptions } from "@/lib/data-plane/data-plane";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-address";
import type { Runtime } from "@/lib/runtime";
import type { ServiceTokenScope } from "@/lib/vocabulary";

/** DataPlaneServer is the data plane on a loopback port, as the server entry mounts it. */
export interface DataPlaneServer {
  url: string;
  /** fallbackHits counts requests the data plane did not claim (the server entry hands them to Next). */
  fallbackHits(): number;
  close(): Promise<void>;
}

/**
 * startDataPlane serves the data plane over `runtime` on 127.0.0.1 and a free port, with the
 * server entry's dispatch: its paths answered by it, anything else by a stand-in for Next (404).
 */
export async function startDataPlane(
  runtime: Runtime,
  options: DataPlaneOptions = {},
): Promise<DataPlaneServer> {
  const plane = createDataPlane(runtime, options);
  let fallback = 0;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.headers[CLIENT_ADDRESS_HEADER] = request.socket.remoteAddress ?? "unknown";
    if (plane.handles(request)) return plane.serve(request, response);
    fallback++;
    response.writeHead(404).end("not the data plane");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    fallbackHits: () => fallback,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

/** serviceToken creates a service token through the operator service and returns the token. */
export function serviceToken(
  runtime: Runtime,
  scopes: ServiceTokenScope[] = ["decide"],
  name = "test service",
): { id: number; token: string } {
  const created = createServiceToken(runtime, "admin", { name, scopes });
  if (!created.ok) throw new Error(`could not create a service token: ${created.title}`);
  return { id: created.value.serviceToken.id, token: created.value.token };
}

/** postJson posts JSON to a decision API path with a service token. */
export function postJson(
  url: string,
  body: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** DecisionCalls are a service's calls to the decision API of one server, with one token. */
export interface DecisionCalls {
  /** decide posts one decision to /api/v1/decisions. */
  decide(body: unknown): Promise<Response>;
  /** batch posts decisions to /api/v1/decisions/batch. */
  batch(decisions: unknown[]): Promise<Response>;
}

/** decisionCalls calls the decision API at `url` with the service token `token`. */
export function decisionCalls(url: string, token: string): DecisionCalls {
  return {
    decide: (body) => postJson(`${url}/api/v1/decisions`, body, token),
    batch: (decisions) => postJson(`${url}/api/v1/decisions/batch`, { decisions }, token),
  };
}
