// npm run db:migrate: apply pending migrations to DATABASE_PATH (default data/ratekeeper.db).
// The app also does this on start; this is for deploy pipelines that migrate ahead of time.
import { openDatabase } from "../db/client";
import { envOrExit } from "../lib/env";

const { DATABASE_PATH } = envOrExit();
const { sqlite } = openDatabase(DATABASE_PATH);
const applied = sqlite.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as {
  n: number;
};
console.log(`${DATABASE_PATH}: ${applied.n} migration(s) applied, schema up to date.`);
sqlite.close();
