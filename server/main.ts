// The server entry: `npm start` runs its build (dist/server.mjs); `npm run dev` runs it with
// Next in development mode. RATEKEEPER_ROLE picks what this process is: the full app (the
// control plane and the data plane, with the database: server/full.ts) or an edge (the data
// plane alone, its policy from Redis, no database and no Next: server/edge.ts).
import { envOrExit } from "@/lib/env";

// A bad environment stops here with one line per problem, before anything starts.
if (envOrExit().RATEKEEPER_ROLE === "edge") await import("./edge");
else await import("./full");
