import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV_NAMES } from "@/lib/env";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** README_MAX_LINES is the most lines the README may have: a front door, not the reference. */
const README_MAX_LINES = 250;

/** QUICK_START is the README's two commands, byte for byte: CI runs its `npm test` (.ci/run). */
const QUICK_START = [
  "npm install && npm run build && npm start     # installs, builds, serves http://localhost:3000",
  "npm test                                      # type-check, lint, unit + integration, end-to-end",
].join("\n");

/** Link is one link in a markdown file: its target as written and the line it is on (1-based). */
interface Link {
  target: string;
  line: number;
}

/** MarkdownFile is a markdown file of the repository by its path from the root, with its text. */
interface MarkdownFile {
  file: string;
  text: string;
}

/**
 * proseLines is a markdown text's lines with fenced code blocks blanked and inline code spans
 * removed, so that what a code sample shows is never read as a link or a heading.
 */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split("\n").map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
        fence = undefined;
      }
      return "";
    }
    if (marker !== undefined) {
      fence = marker;
      return "";
    }
    return line.replace(/(`+)[\s\S]*?\1/g, "");
  });
}

/** linksOf lists a markdown text's inline links, images and HTML `src`/`href` targets. */
function linksOf(text: string): Link[] {
  const links: Link[] = [];
  proseLines(text).forEach((line, index) => {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1] ?? "", line: index + 1 });
    }
    for (const match of line.matchAll(/\b(?:src|href)="([^"]*)"/g)) {
      links.push({ target: match[1] ?? "", line: index + 1 });
    }
  });
  return links;
}

/**
 * githubSlug is the anchor GitHub gives a heading: its text without markdown, lower-cased,
 * punctuation dropped (letters, digits, spaces, `-` and `_` kept), spaces made hyphens.
 */
function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

/** anchorsOf lists the anchors of a markdown text's headings, repeats numbered as GitHub does. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of text.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
        fence = undefined;
      }
      continue;
    }
    if (marker !== undefined) {
      fence = marker;
      continue;
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** isExternal says whether a target is a URL with a scheme (https:, mailto:): not checked here. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");
}

/**
 * brokenLinks lists what is wrong with the links of `files` (paths from `root`): a relative link
 * that leaves the repository, names a file that does not exist, or names an anchor that no
 * heading of its markdown file has. `read` gives a markdown file's text by its path from `root`.
 */
function brokenLinks(
  files: readonly MarkdownFile[],
  exists: (file: string) => boolean,
  read: (file: string) => string,
): string[] {
  const problems: string[] = [];
  for (const { file, text } of files) {
    for (const { target, line } of linksOf(text)) {
      if (isExternal(target)) continue;
      const where = `${file}:${line}: ${target}`;
      const hash = target.indexOf("#");
      const filePart = decodeURI(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      if (filePart.startsWith("/")) {
        problems.push(`${where}: an absolute path (write it relative to ${file})`);
        continue;
      }
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), filePart));
      if (resolved === ".." || resolved.startsWith("../")) {
        problems.push(`${where}: leaves the repository`);
        continue;
      }
      const linked = filePart === "" ? file : resolved.replace(/\/$/, "");
      if (!exists(linked)) {
        problems.push(`${where}: no such file (${linked})`);
        continue;
      }
      if (anchor === undefined || anchor === "") continue;
      if (!linked.endsWith(".md")) {
        problems.push(`${where}: an anchor into a file that is not markdown`);
        continue;
      }
      if (!anchorsOf(read(linked)).has(anchor)) {
        problems.push(`${where}: ${linked} has no heading #${anchor}`);
      }
    }
  }
  return problems;
}

/** docsFiles is README.md and every markdown file under docs/, by path from the root. */
function docsFiles(): MarkdownFile[] {
  const names = ["README.md"];
  for (const entry of readdirSync(path.join(ROOT, "docs"), { recursive: true })) {
    const name = String(entry);
    if (name.endsWith(".md")) names.push(path.posix.join("docs", name.split(path.sep).join("/")));
  }
  return names.map((file) => ({ file, text: readFileSync(path.join(ROOT, file), "utf8") }));
}

function existsInRepo(file: string): boolean {
  const full = path.join(ROOT, file);
  return existsSync(full) && (statSync(full).isFile() || statSync(full).isDirectory());
}

function readInRepo(file: string): string {
  return readFileSync(path.join(ROOT, file), "utf8");
}

describe("the link checker", () => {
  const fake: Record<string, string> = {
    "README.md": "# Ratekeeper\n\n## Quick start\n\n## Quick start\n",
    "docs/limiter.md": "# The limiter\n\n## Where we deviate (and why)\n\n### `npm run bench`\n",
    "docs/shot.png": "",
  };
  const check = (file: string, text: string) =>
    brokenLinks(
      [{ file, text }],
      (name) => name in fake || name === "docs",
      (name) => fake[name] ?? "",
    );

  it("accepts links to files, headings (GitHub slugs, repeats numbered) and external URLs", () => {
    const text = [
      "[limiter](docs/limiter.md#where-we-deviate-and-why) [bench](docs/limiter.md#npm-run-bench)",
      "[again](#quick-start-1) ![shot](docs/shot.png) [docs](docs/) [web](https://example.com/x)",
      '<img src="docs/shot.png" alt="">',
    ].join("\n");
    expect(check("README.md", text)).toEqual([]);
    expect(check("docs/limiter.md", "[home](../README.md#ratekeeper)")).toEqual([]);
  });

  it("reports a link to a missing file, with its line", () => {
    expect(check("README.md", "\n[gone](docs/gone.md)")).toEqual([
      "README.md:2: docs/gone.md: no such file (docs/gone.md)",
    ]);
  });

  it("reports a link that leaves the repository", () => {
    expect(check("README.md", "[design](../shared/design/limiter.md)")).toEqual([
      "README.md:1: ../shared/design/limiter.md: leaves the repository",
    ]);
    expect(check("docs/limiter.md", "[up](../../x.md)")).toEqual([
      "docs/limiter.md:1: ../../x.md: leaves the repository",
    ]);
  });

  it("reports an anchor that no heading has, in this file or another", () => {
    expect(check("README.md", "[x](#nowhere) [y](docs/limiter.md#the-limiter-core)")).toEqual([
      "README.md:1: #nowhere: README.md has no heading #nowhere",
      "README.md:1: docs/limiter.md#the-limiter-core: docs/limiter.md has no heading #the-limiter-core",
    ]);
  });

  it("reads no link inside code", () => {
    expect(check("README.md", "```\n[gone](gone.md)\n```\n`[gone](gone.md)`")).toEqual([]);
  });
});

describe("the README and docs/", () => {
  const files = docsFiles();

  it("link only to files and headings that exist, inside the repository", () => {
    expect(files.length).toBeGreaterThan(1);
    expect(brokenLinks(files, existsInRepo, readInRepo)).toEqual([]);
  });

  it(`keep the README to ${README_MAX_LINES} lines at most`, () => {
    const readme = readInRepo("README.md");
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("keep the README's two quick-start commands, byte for byte", () => {
    expect(readInRepo("README.md")).toContain(`\`\`\`sh\n${QUICK_START}\n\`\`\``);
  });

  it("link every docs/ page from the README, and each page back to it", () => {
    const readme = linksOf(readInRepo("README.md")).map(({ target }) => target.split("#")[0]);
    for (const { file, text } of files.filter(({ file }) => file.startsWith("docs/"))) {
      expect(readme, `README.md links to ${file}`).toContain(file);
      const back = linksOf(text).map(({ target }) => target.split("#")[0]);
      expect(back, `${file} links back to the README`).toContain("../README.md");
    }
  });

  it("give every environment variable lib/env.ts reads a row in docs/configuration.md", () => {
    const configuration = readInRepo("docs/configuration.md");
    for (const name of ENV_NAMES) {
      expect(configuration, name).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, "m"));
    }
  });
});
