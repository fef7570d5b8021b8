import path from "node:path";

/** MIGRATIONS_FOLDER is where drizzle-kit writes the committed SQL migrations. */
export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");
