import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** FLOORS: each part of the house, by path prefix, with the floor it stands on (architecture.md). */
const FLOORS: [prefix: string, floor: number][] = [
  ["server/", 5],
  ["app/", 5],
  ["lib/next/", 4],
  ["lib/data-plane/", 4],
  ["lib/runtime", 3],
  ["lib/http/", 3],
  ["lib/admin/", 2],
  ["lib/backup/", 2],
  ["lib/policy/", 2],
  ["lib/usage/", 2],
  ["lib/auth/", 2],
  ["lib/schemas/", 1],
  ["lib/simulator/", 1],
  ["db/", 1],
  ["lib/limiter/", 0],
  ["lib/limiter-redis/", 0],
  ["lib/vocabulary.ts", 0],
];

function floorOf(file: string): number | undefined {
  return FLOORS.find(([prefix]) => file.startsWith(prefix))?.[1];
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(name)) out.push(rel);
  }
  return out;
}

/** importsOf lists the repository files a source file imports (type-only imports included). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
    const spec = match[1] as string;
    let target: string | undefined;
    if (spec.startsWith("@/")) target = spec.slice(2);
    else if (spec.startsWith(".")) target = path.posix.join(path.posix.dirname(file), spec);
    if (target === undefined) continue;
    found.push(target);
  }
  return found;
}

/** folderOf names the folder an import belongs to, for the loop check: `lib/policy`, `db`, ... */
function folderOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] === "lib" && parts.length > 2) return `lib/${parts[1]}`;
  if (parts[0] === "lib") return file.replace(/\.tsx?$/, "");
  return parts[0] as string;
}

const files = ["server", "app", "lib", "db", "components"].flatMap((dir) => sources(dir));

describe("the floors of the house", () => {
  it("no file imports one on a higher floor", () => {
    const upward: string[] = [];
    for (const file of files) {
      const own = floorOf(file);
      if (own === undefined) continue;
      for (const target of importsOf(file)) {
        const theirs = floorOf(target);
        if (theirs !== undefined && theirs > own) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("no import loop between the folders of lib/ and db/", () => {
    const edges = new Map<string, Set<string>>();
    for (const file of files.filter((f) => f.startsWith("lib/") || f.startsWith("db/"))) {
      const from = folderOf(file);
      for (const target of importsOf(file)) {
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
    expect(loops).toEqual([]);
  });

  it("the limiter core and the vocabulary import nothing of the app", () => {
    const core = files.filter(
      (f) =>
        f.startsWith("lib/limiter/") ||
        f.startsWith("lib/limiter-redis/") ||
        f === "lib/vocabulary.ts",
    );
    const outside = core.flatMap((file) =>
      importsOf(file)
        .filter((t) => !t.startsWith("lib/limiter") && !t.startsWith(path.posix.dirname(file)))
        .map((t) => `${file} -> ${t}`),
    );
    expect(outside).toEqual([]);
  });
});
