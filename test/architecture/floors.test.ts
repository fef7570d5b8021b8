import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  browserLeaks,
  coreOutsiders,
  databaseReach,
  type Floors,
  folderLoops,
  readSources,
  upwardImports,
} from "./import-graph";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** FLOORS: each part of the house, by path prefix, with the floor it stands on (architecture.md). */
const FLOORS: Floors = [
  ["server/", 5],
  ["app/", 5],
  ["lib/next/", 4],
  ["lib/data-plane/", 4],
  ["lib/runtime/", 3],
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

const sources = readSources(ROOT, ["server", "app", "lib", "db", "components"]);

describe("the floors of the house", () => {
  it("no file imports one on a higher floor", () => {
    expect(upwardImports(sources, FLOORS)).toEqual([]);
  });

  it("no import loop between the folders of lib/ and db/", () => {
    expect(folderLoops(sources)).toEqual([]);
  });

  it("the limiter core and the vocabulary import nothing of the app, nor a package of the server", () => {
    expect(coreOutsiders(sources)).toEqual([]);
  });

  it("components/ and lib/client/ import no database, runtime or other server module", () => {
    expect(browserLeaks(sources)).toEqual([]);
  });

  it("nothing the edge's entry loads imports db/ or drizzle-orm, directly or through another module", () => {
    expect(databaseReach("server/edge.ts", sources)).toEqual([]);
  });
});
