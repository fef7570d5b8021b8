import { describe, expect, it } from "vitest";
import {
  browserLeaks,
  coreOutsiders,
  databaseReach,
  type Floors,
  folderLoops,
  importsOf,
  upwardImports,
} from "./import-graph";

/** FLOORS is a small table of floors for the fixture (the real one is in floors.test.ts). */
const FLOORS: Floors = [
  ["server/", 5],
  ["lib/runtime", 3],
  ["lib/policy/", 2],
  ["lib/auth/", 2],
  ["lib/usage/", 2],
  ["db/", 1],
  ["lib/limiter/", 0],
];

/** tree is a small house that passes every check; each test below adds one mistake to it. */
function tree(extra: Record<string, string> = {}): Map<string, string> {
  return new Map(
    Object.entries({
      "server/edge.ts": 'import { createEdgeRuntime } from "@/lib/runtime/edge";\n',
      "lib/runtime/edge.ts":
        'import { decide } from "@/lib/policy/decide";\nimport { Redis } from "ioredis";\n',
      "lib/runtime/full.ts": 'import { openDatabase } from "@/db/client";\n',
      "lib/policy/decide.ts": 'import { limit } from "@/lib/limiter";\n',
      "lib/limiter/index.ts": 'export { limit } from "./limit";\n',
      "lib/limiter/limit.ts": "export const limit = 1;\n",
      "lib/limiter-redis/index.ts": 'import type { Redis } from "ioredis";\n',
      "db/client.ts":
        'import Database from "better-sqlite3";\nimport { drizzle } from "drizzle-orm";\n',
      "components/chart.tsx":
        'import { useState } from "react";\nimport { limit } from "@/lib/limiter";\n',
      "lib/client/api.ts":
        'import type { UsageAnswer } from "@/lib/schemas/usage-answer.schema";\n',
      ...extra,
    }),
  );
}

describe("the floors checker catches each mistake", () => {
  it("passes the house without mistakes", () => {
    const house = tree();
    expect(upwardImports(house, FLOORS)).toEqual([]);
    expect(folderLoops(house)).toEqual([]);
    expect(coreOutsiders(house)).toEqual([]);
    expect(browserLeaks(house)).toEqual([]);
    expect(databaseReach("server/edge.ts", house)).toEqual([]);
  });

  it("catches an upward import written with single quotes", () => {
    const house = tree({ "lib/policy/decide.ts": "import { getRuntime } from '@/lib/runtime';\n" });
    expect(upwardImports(house, FLOORS)).toEqual(["lib/policy/decide.ts -> lib/runtime"]);
  });

  it("catches a single-quoted, multi-line and dynamic import alike", () => {
    const text = [
      "import {\n  a,\n  b,\n} from '@/lib/a';",
      'export { c } from "./c";',
      "import type { D } from '@/lib/d';",
      "const e = await import('@/lib/e');",
      'import "server-only";',
      'export const notAnImport = "lib/f";',
    ].join("\n");
    expect(importsOf("lib/x/y.ts", text)).toEqual([
      { target: "lib/a", package: false, typeOnly: false },
      { target: "lib/x/c", package: false, typeOnly: false },
      { target: "lib/d", package: false, typeOnly: true },
      { target: "lib/e", package: false, typeOnly: false },
      { target: "server-only", package: true, typeOnly: false },
    ]);
  });

  it("catches a loop between two folders", () => {
    const house = tree({
      "lib/usage/a.ts": 'import { b } from "@/lib/auth/b";\n',
      "lib/auth/b.ts": 'import { a } from "@/lib/usage/a";\n',
    });
    expect(folderLoops(house)).toContain("lib/usage -> lib/auth -> lib/usage");
  });

  it("catches a package import such as ioredis in the pure limiter", () => {
    const house = tree({ "lib/limiter/limit.ts": "import Redis from 'ioredis';\n" });
    expect(coreOutsiders(house)).toEqual(["lib/limiter/limit.ts -> ioredis"]);
  });

  it("catches the core importing a file of the app", () => {
    const house = tree({ "lib/limiter-redis/index.ts": 'import { log } from "@/lib/log";\n' });
    expect(coreOutsiders(house)).toEqual(["lib/limiter-redis/index.ts -> lib/log"]);
  });

  it("catches a component importing db/", () => {
    const house = tree({
      "components/table.tsx": "import { listPlans } from '@/db/queries/plans';\n",
    });
    expect(browserLeaks(house)).toEqual(["components/table.tsx -> db/queries/plans"]);
  });

  it("catches lib/client importing a runtime", () => {
    const house = tree({ "lib/client/api.ts": 'import { getRuntime } from "@/lib/runtime";\n' });
    expect(browserLeaks(house)).toEqual(["lib/client/api.ts -> lib/runtime"]);
  });

  it("catches a component importing a server module or a server package", () => {
    const house = tree({
      "components/usage.tsx": [
        'import { nearLimitCustomers } from "@/lib/admin/near-limit";',
        'import { RedisLimiter } from "@/lib/limiter-redis";',
        'import { readFileSync } from "node:fs";',
        'import Redis from "ioredis";',
      ].join("\n"),
    });
    expect(browserLeaks(house)).toEqual([
      "components/usage.tsx -> lib/admin/near-limit",
      "components/usage.tsx -> lib/limiter-redis",
      "components/usage.tsx -> node:fs",
      "components/usage.tsx -> ioredis",
    ]);
  });

  // Regression: type-only imports of server modules passed, and lib/client typed its answers
  // from lib/admin and lib/usage behind six suppressions: a second definition of each shape.
  it("catches a type-only import of a server module from browser code", () => {
    const house = tree({
      "lib/client/types.ts": 'import type { UsageResponse } from "@/lib/admin/usage";\n',
      "components/chart.tsx": 'import type { Db } from "@/db/client";\n',
    });
    expect(browserLeaks(house)).toEqual([
      "components/chart.tsx -> db/client",
      "lib/client/types.ts -> lib/admin/usage",
    ]);
  });

  it("catches the edge reaching db/ through another module", () => {
    const house = tree({
      "lib/policy/decide.ts": 'import { recordUse } from "@/lib/auth/uses";\n',
      "lib/auth/uses.ts": "import type { Db } from '@/db/client';\n",
    });
    expect(databaseReach("server/edge.ts", house)).toEqual(["lib/auth/uses.ts -> db/client"]);
  });

  it("catches the edge importing drizzle-orm without db/", () => {
    const house = tree({ "lib/runtime/edge.ts": 'import { eq } from "drizzle-orm";\n' });
    expect(databaseReach("server/edge.ts", house)).toEqual(["lib/runtime/edge.ts -> drizzle-orm"]);
  });
});
