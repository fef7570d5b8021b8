// The API the end-to-end server's gateway fronts (GATEWAY_UPSTREAM): it answers every request 200
// with its method and path as JSON, so a spec sees what the gateway forwarded.
//
// Environment: PORT (the port to listen on, on 127.0.0.1).
import { createServer } from "node:http";

const port = Number(process.env.PORT);
createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ method: req.method, path: req.url }));
  });
}).listen(port, "127.0.0.1", () => console.log(`upstream listening on ${port}`));
