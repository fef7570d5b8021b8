import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import { seed } from "./bench/decide-setup";
const dir = mkdtempSync(path.join(os.tmpdir(), "exp-"));
const db = path.join(dir, "b.db");
const f = seed(db, "password123");
const kind = process.argv[2] ?? "single";
const child = spawn(process.execPath, ["--cpu-prof", "--cpu-prof-dir=/tmp/prof-entry", "dist/server.mjs"], { env: { ...process.env, NODE_ENV: "production", DATABASE_PATH: db, ADMIN_PASSWORD: "password123", PORT: "3393", HOST: "127.0.0.1" }, stdio: ["ignore", "pipe", "inherit"] });
for (;;) { try { if ((await fetch("http://127.0.0.1:3393/api/health")).ok) break; } catch {} await new Promise(r => setTimeout(r, 200)); }
const body = kind === "single" ? JSON.stringify({ key: f.single, operation: "read" }) : JSON.stringify({ decisions: f.batch.map((key) => ({ key, operation: "read" })) });
const headers = { authorization: `Bearer ${f.token}`, "content-type": "application/json" };
const url = `http://127.0.0.1:3393/api/v1/decisions${kind === "single" ? "" : "/batch"}`;
const r = await autocannon({ url, method: "POST", headers, body, connections: 10, duration: 8 });
console.log(kind, Math.round(r.requests.average), r.latency.p50, r.latency.p99);
child.kill("SIGTERM"); await new Promise(r => child.once("exit", r));
