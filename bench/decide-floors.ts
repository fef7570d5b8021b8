/**
 * The floors and the upstream of `npm run bench:decide`, each a bare node:http server run in a
 * process of its own (so none shares a CPU thread with autocannon or with another server):
 *
 * - `decision-floor <port> <body file>`: reads each request's body and answers the JSON in the
 *   file (a real decision's answer, captured by the bench) with the decision API's fields, without
 *   deciding anything: what an HTTP answer costs on this machine, at the least;
 * - `upstream <port>`: the API the gateway fronts: a small JSON answer to every request;
 * - `proxy-floor <port> <upstream port>`: a bare reverse proxy to the upstream, with a keep-alive
 *   agent like the gateway's, that strips the /gw prefix and pipes both ways, deciding nothing.
 *
 * `node --import tsx bench/decide-floors.ts <kind> ...`; it prints "ready" once it listens.
 */
import { readFileSync } from "node:fs";
import http from "node:http";

/** UPSTREAM_BODY is what the bench's upstream answers: a short list, like a real API's page. */
export const UPSTREAM_BODY = JSON.stringify({
  items: [
    { id: 1, name: "widget", quantity: 3 },
    { id: 2, name: "gadget", quantity: 7 },
  ],
  next: null,
});

function decisionFloor(bodyFile: string): http.Server {
  const body = readFileSync(bodyFile);
  return http.createServer((request, response) => {
    request.on("data", () => {});
    request.on("end", () => {
      response.writeHead(200, {
        "Content-Type": "application/json",
        "Cache-Control": "no-store",
        "Content-Length": body.length,
      });
      response.end(body);
    });
  });
}

function upstream(): http.Server {
  const body = Buffer.from(UPSTREAM_BODY);
  return http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, {
        "Content-Type": "application/json",
        "Content-Length": body.length,
      });
      response.end(body);
    });
  });
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host"]);

function proxyFloor(upstreamPort: number): http.Server {
  const agent = new http.Agent({ keepAlive: true, scheduling: "lifo" });
  return http.createServer((request, response) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!HOP_BY_HOP.has(name)) headers[name] = value;
    }
    const outgoing = http.request(
      {
        host: "127.0.0.1",
        port: upstreamPort,
        method: request.method,
        path: (request.url ?? "/").replace(/^\/gw/, "") || "/",
        headers,
        agent,
      },
      (answer) => {
        const back: http.OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (!HOP_BY_HOP.has(name)) back[name] = value;
        }
        response.writeHead(answer.statusCode ?? 502, back);
        answer.pipe(response);
      },
    );
    outgoing.on("error", () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(outgoing);
  });
}

function main(): void {
  const [kind, portArg, arg] = process.argv.slice(2);
  const port = Number(portArg);
  let server: http.Server;
  if (kind === "decision-floor" && arg) server = decisionFloor(arg);
  else if (kind === "upstream") server = upstream();
  else if (kind === "proxy-floor" && arg) server = proxyFloor(Number(arg));
  else throw new Error(`usage: decide-floors.ts decision-floor|upstream|proxy-floor <port> [arg]`);
  server.listen(port, "127.0.0.1", () => console.log("ready"));
  process.on("SIGTERM", () => process.exit(0));
}

if (process.argv[1]?.endsWith("decide-floors.ts")) main();
