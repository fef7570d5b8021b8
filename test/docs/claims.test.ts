import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What the docs must tell a new integrator, each once found missing or wrong. The behaviour
// behind each claim has its own test (named in the comment); these keep the words in place.

const ROOT = path.resolve(import.meta.dirname, "../..");

/** prose is a markdown file's text with its line breaks and runs of spaces made one space. */
function prose(file: string): string {
  return readFileSync(path.join(ROOT, file), "utf8").replace(/\s+/g, " ");
}

/** section is the prose of a markdown file from a heading to the next heading of any level. */
function section(file: string, heading: string): string {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`${file} has no heading "${heading}"`);
  const end = text.indexOf("\n#", start + heading.length + 2);
  return text.slice(start, end === -1 ? undefined : end).replace(/\s+/g, " ");
}

describe("the docs tell a new integrator", () => {
  // Regression: the quick start said "serves http://localhost:3000", and nothing of the port.
  it("how to serve on another port, in the README's quick start", () => {
    expect(section("README.md", "## Quick start")).toContain("`PORT=8080 npm start`");
  });

  // test/api/admin/auth.test.ts: "gives back one attempt every 6 seconds after a lock, …".
  it("what a locked sign-in answers, and when attempts come back", () => {
    const signingIn = section("docs/dashboard.md", "## Signing in");
    expect(signingIn).not.toContain("until the minute has refilled");
    expect(signingIn).toContain("`429 Too many failed sign-in attempts`");
    expect(signingIn).toContain("`Retry-After`");
    expect(signingIn).toContain("one attempt every 6 seconds");
  });

  // test/lib/data-plane/decision-errors.test.ts and test/api/admin/hostile-input.test.ts.
  it("that a charset other than UTF-8 is a 415, on the decision API and the admin API", () => {
    expect(prose("docs/decision-api.md")).toContain("another charset, is `415`");
    expect(prose("docs/admin-api.md")).toContain("a `charset` other than `utf-8` is `415`");
    expect(prose("docs/security.md")).not.toContain("parameters such as `charset` allowed");
  });

  it("that a field given twice is a 400, and that every error of a body comes at once", () => {
    expect(prose("docs/decision-api.md")).toContain("a field given twice");
    expect(prose("docs/decision-api.md")).toContain("every error of the body at once");
    expect(prose("docs/admin-api.md")).toContain("a field given twice in one object");
  });

  // test/usage/quota-counts.test.ts, test/limiter-redis/quota-memory.test.ts,
  // test/usage/quota-restorer.test.ts and test/lib/policy/redis-quota-stand-in.test.ts.
  it("the worst-case overrun of a quota in each failure, and where the README lists it", () => {
    const quotas = prose("docs/quotas.md");
    expect(quotas).toContain("at most one flush interval's, **5 s** by default");
    expect(quotas).toContain("in the last **~75 s** before the loss");
    expect(quotas).toContain("up to (instances - 1) x that remainder");
    expect(prose("README.md")).toContain("[Quotas: what survives a failure](docs/quotas.md)");
  });

  // Regression: only the dashboard said it ("unlimited"); an API client got no hint.
  // test/lib/data-plane/decision-api.test.ts: "never refuses an operation that has no enforced
  // limit".
  it("that a plan or an operation without limits is unlimited", () => {
    expect(prose("docs/admin-api.md")).toContain("**No limits means unlimited.**");
    expect(prose("docs/dashboard.md")).toContain("An operation with no limit is unlimited");
  });
});
