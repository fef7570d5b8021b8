import type { Runtime } from "@/lib/runtime";

/** tableRows reads every row of every table of a runtime's database, by table name. */
export function tableRows(runtime: Runtime): Record<string, unknown[]> {
  const tables = runtime.sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all() as { name: string }[];
  return Object.fromEntries(
    tables.map(({ name }) => [name, runtime.sqlite.prepare(`SELECT * FROM "${name}"`).all()]),
  );
}
