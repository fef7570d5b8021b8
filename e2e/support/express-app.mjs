// A customer-facing API of the kind @ratekeeper/client protects: an Express 5 app whose /api routes
// go through the SDK's middleware, importing the SDK as built (sdk/dist). The end-to-end suite runs
// several of these as separate processes in front of one Ratekeeper.
//
// Environment: RATEKEEPER_URL, RATEKEEPER_TOKEN (a service token), APP_NAME (sent back in
// X-Served-By), PORT (0: any free port), RATEKEEPER_TIMEOUT_MS, RATEKEEPER_ON_UNAVAILABLE,
// RATEKEEPER_ON_MISCONFIGURED, RATEKEEPER_VERIFY=1 (check the token at start, exit 1 if refused).
// It prints "listening on <url>" once it accepts requests. The client's own log lines go to the
// console, as they would in any service.
import express from "express";
import { createRatekeeper } from "../../sdk/dist/index.js";

const env = process.env;
const name = env.APP_NAME ?? "app";
const rk = createRatekeeper({
  url: env.RATEKEEPER_URL,
  token: env.RATEKEEPER_TOKEN,
  timeoutMs: Number(env.RATEKEEPER_TIMEOUT_MS ?? 100),
  onUnavailable: env.RATEKEEPER_ON_UNAVAILABLE ?? "open",
  onMisconfigured: env.RATEKEEPER_ON_MISCONFIGURED ?? "refuse",
  onError: (error) => console.error(`${name}: ratekeeper ${error.kind}: ${error.message}`),
});

if (env.RATEKEEPER_VERIFY === "1") {
  try {
    const token = await rk.verify();
    console.log(`${name}: Ratekeeper accepts the token "${token.name}"`);
  } catch (error) {
    console.error(`${name}: cannot start: ${error.message}`);
    process.exit(1);
  }
}

const app = express();
app.use((_req, res, next) => {
  res.set("X-Served-By", name);
  next();
});
app.use("/api", rk.express());
app.get("/api/orders", (req, res) => {
  res.json({ orders: [], customerId: rk.decisionOf(req)?.customer?.id ?? null });
});
app.post("/api/orders", (_req, res) => {
  res.status(201).json({ created: true });
});

const server = app.listen(Number(env.PORT ?? 0), "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
