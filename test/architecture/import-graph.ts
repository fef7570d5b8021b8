import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Sources maps a repository path ("lib/policy/decide.ts") to its text: the real tree (readSources)
 * or a small fixture (the checker's own tests), so both run the same checks.
 */
export type Sources = ReadonlyMap<string, string>;

/**
 * Import is one import of a source file: `target` is a repository path without its extension
 * ("lib/runtime/full") for `@/` and relative specifiers, or the package's name ("ioredis",
 * "node:fs", "drizzle-orm/sqlite-core") for the rest; `typeOnly` when it is erased at build.
 */
export interface Import {
  target: string;
  package: boolean;
  typeOnly: boolean;
}

/** Floors: each part of the house, by path prefix, with the floor it stands on (architecture.md). */
export type Floors = readonly (readonly [prefix: string, floor: number])[];

// `import … from "x"`, `import type … from 'x'`, `export … from "x"`, `import "x"`, `import("x")`:
// either quote, the statement's head kept to tell type-only imports apart.
const IMPORT =
  /(?:^|[;\n}])\s*((?:import|export)(?:\s+type)?)\b[^"'`;=():]*?\bfrom\s*(["'])([^"'\n]+)\2|(?:^|[;\n])\s*import\s*(["'])([^"'\n]+)\4|\bimport\s*\(\s*(["'])([^"'\n]+)\6\s*\)/g;

/** importsOf lists the imports of `file`, whose text is `text`, in the order they appear. */
export function importsOf(file: string, text: string): Import[] {
  const found: Import[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const head = match[1];
    const spec = (match[3] ?? match[5] ?? match[7]) as string;
    const typeOnly = head !== undefined && /\stype$/.test(head);
    if (spec.startsWith("@/")) found.push({ target: spec.slice(2), package: false, typeOnly });
    else if (spec.startsWith(".")) {
      const target = path.posix.join(path.posix.dirname(file), spec);
      found.push({ target, package: false, typeOnly });
    } else found.push({ target: spec, package: true, typeOnly });
  }
  return found;
}

/** packageName is the npm name of a package specifier: "drizzle-orm/sqlite-core" -> "drizzle-orm". */
export function packageName(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
}

/** resolve finds the source file an import without extension names: `x.ts`, `x.tsx`, `x/index.ts`. */
export function resolve(target: string, sources: Sources): string | undefined {
  const stem = target.replace(/\.(m?js|tsx?)$/, "");
  for (const candidate of [
    target,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}/index.ts`,
    `${stem}/index.tsx`,
  ]) {
    if (sources.has(candidate)) return candidate;
  }
  return undefined;
}

/** floorOf is the floor of a repository path, by the longest matching prefix of `floors`. */
export function floorOf(file: string, floors: Floors): number | undefined {
  let best: readonly [string, number] | undefined;
  for (const entry of floors) {
    if (file.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}

/** upwardImports lists "file -> target" for each import of a file on a higher floor than its own. */
export function upwardImports(sources: Sources, floors: Floors): string[] {
  const upward: string[] = [];
  for (const [file, text] of sources) {
    const own = floorOf(file, floors);
    if (own === undefined) continue;
    for (const { target, package: pkg } of importsOf(file, text)) {
      if (pkg) continue;
      const theirs = floorOf(target, floors);
      if (theirs !== undefined && theirs > own) upward.push(`${file} -> ${target}`);
    }
  }
  return upward;
}

/** folderOf names the folder an import belongs to, for the loop check: `lib/policy`, `db`, ... */
function folderOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] === "lib" && parts.length > 2) return `lib/${parts[1]}`;
  if (parts[0] === "lib") return file.replace(/\.tsx?$/, "");
  return parts[0] as string;
}

/** folderLoops lists the import loops between the folders of lib/ and db/ ("a -> b -> a"). */
export function folderLoops(sources: Sources): string[] {
  const edges = new Map<string, Set<string>>();
  for (const [file, text] of sources) {
    if (!file.startsWith("lib/") && !file.startsWith("db/")) continue;
    const from = folderOf(file);
    for (const { target, package: pkg } of importsOf(file, text)) {
      if (pkg) continue;
      const to = folderOf(target);
      if (to === from || !(to.startsWith("lib") || to === "db")) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)?.add(to);
    }
  }
  const loops: string[] = [];
  const visit = (node: string, trail: string[]) => {
    for (const next of edges.get(node) ?? []) {
      if (trail.includes(next))
        loops.push([...trail.slice(trail.indexOf(next)), next].join(" -> "));
      else visit(next, [...trail, next]);
    }
  };
  for (const node of edges.keys()) visit(node, [node]);
  return loops;
}

/** CORE is the floor-0 core: the limiter, its Redis storage and the vocabulary. */
const CORE = ["lib/limiter/", "lib/limiter-redis/", "lib/vocabulary.ts"];

/**
 * CORE_PACKAGES are the packages each part of the core may import: the pure limiter only the
 * Temporal polyfill for its quotas' calendars (it runs in the browser's simulator too, as the
 * polyfill does), its Redis storage the Redis client and node:crypto.
 */
const CORE_PACKAGES: Record<string, readonly string[]> = {
  "lib/limiter/": ["temporal-polyfill"],
  "lib/limiter-redis/": ["ioredis", "node:crypto"],
  "lib/vocabulary.ts": [],
};

/**
 * coreOutsiders lists the imports of the core that reach outside it: a file of the app, or a
 * package its part may not import (ioredis in the pure limiter, say).
 */
export function coreOutsiders(sources: Sources): string[] {
  const outside: string[] = [];
  for (const [file, text] of sources) {
    const part = CORE.find((prefix) => file.startsWith(prefix));
    if (part === undefined) continue;
    for (const { target, package: pkg } of importsOf(file, text)) {
      const allowed = pkg
        ? (CORE_PACKAGES[part] ?? []).includes(packageName(target))
        : target.startsWith("lib/limiter") || target.startsWith(path.posix.dirname(file));
      if (!allowed) outside.push(`${file} -> ${target}`);
    }
  }
  return outside;
}

/** BROWSER is the code that runs in the browser: the components and the dashboard's API client. */
const BROWSER = ["components/", "lib/client/"];

/**
 * BROWSER_MAY_IMPORT is what browser code may import of the app at run time: itself, the
 * client-safe limiter, the vocabulary, the schemas, the simulator and the small shared helpers.
 */
const BROWSER_MAY_IMPORT = [
  "components/",
  "lib/client/",
  "lib/limiter",
  "lib/vocabulary",
  "lib/schemas/",
  "lib/simulator/",
  "lib/format",
  "lib/time-format",
  "lib/next-path",
];

/** under says whether `target` is `prefix` (a folder ending in "/", or a module with or without its folder). */
function under(target: string, prefix: string): boolean {
  if (prefix.endsWith("/")) return target.startsWith(prefix);
  return (
    target === prefix ||
    target.startsWith(`${prefix}/`) ||
    /^\.tsx?$/.test(target.slice(prefix.length))
  );
}

/** SERVER_PACKAGES are the packages only a server can load. */
const SERVER_PACKAGES = [
  "better-sqlite3",
  "drizzle-orm",
  "drizzle-kit",
  "ioredis",
  "prom-client",
  "server-only",
];

/**
 * browserLeaks lists the imports of a server module from components/ or lib/client/: any import
 * of the app outside BROWSER_MAY_IMPORT (db/, a runtime, lib/admin, lib/policy, lib/usage, ...),
 * type-only or not, and any server package or Node built-in. A type-only import would be erased
 * at build, but the shapes browser code reads are the answer schemas' (lib/schemas), defined
 * once; a server module's own type there would be a second definition.
 */
export function browserLeaks(sources: Sources): string[] {
  const leaks: string[] = [];
  for (const [file, text] of sources) {
    if (!BROWSER.some((prefix) => file.startsWith(prefix))) continue;
    for (const { target, package: pkg } of importsOf(file, text)) {
      if (pkg) {
        const name = packageName(target);
        if (name.startsWith("node:") || SERVER_PACKAGES.includes(name)) {
          leaks.push(`${file} -> ${target}`);
        }
        continue;
      }
      if (!BROWSER_MAY_IMPORT.some((prefix) => under(target, prefix))) {
        leaks.push(`${file} -> ${target}`);
      }
    }
  }
  return leaks;
}

/**
 * reachableFrom is every source file `entry` loads, following its imports transitively (type-only
 * imports too: a type that needs db/ is a dependency on db/ all the same), `entry` included.
 */
export function reachableFrom(entry: string, sources: Sources): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { target, package: pkg } of importsOf(file, sources.get(file) ?? "")) {
      if (pkg) continue;
      const next = resolve(target, sources);
      if (next !== undefined && !seen.has(next)) stack.push(next);
    }
  }
  return seen;
}

/**
 * databaseReach lists, for every file outside db/ reachable from `entry`, its imports of db/ and
 * of drizzle-orm or better-sqlite3 ("file -> target"): an edge's entry must have none.
 */
export function databaseReach(entry: string, sources: Sources): string[] {
  const found: string[] = [];
  for (const file of reachableFrom(entry, sources)) {
    // The crossing into the database is the finding; what db/ itself imports is its own business.
    if (file.startsWith("db/")) continue;
    for (const { target, package: pkg } of importsOf(file, sources.get(file) ?? "")) {
      const database = pkg
        ? ["drizzle-orm", "better-sqlite3"].includes(packageName(target))
        : target === "db" || target.startsWith("db/");
      if (database) found.push(`${file} -> ${target}`);
    }
  }
  return found.sort();
}

/** readSources reads the .ts and .tsx files under `dirs` of the repository at `root`. */
export function readSources(root: string, dirs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir))) {
      const rel = path.posix.join(dir, name);
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(name)) out.set(rel, readFileSync(path.join(root, rel), "utf8"));
    }
  };
  for (const dir of dirs) walk(dir);
  return out;
}
