import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LIVE_WINDOW } from "@/components/overview/live-overview";

const DASHBOARD_DOC = readFileSync(
  path.join(import.meta.dirname, "../../../docs/dashboard.md"),
  "utf8",
);

describe("the live overview's window", () => {
  // Regression: the docs said the live view showed "the totals of the last five minutes"
  // while its cards and chart cover 2 minutes.
  it("is the one the dashboard's docs describe", () => {
    const overview = DASHBOARD_DOC.split("\n- **Overview**")[1]?.split("\n- **")[0] ?? "";
    expect(overview, "the docs' Overview item").toContain("**live**");
    const flat = overview.replace(/\s+/g, " ");
    expect(flat).toContain(`the totals of ${LIVE_WINDOW.words} and the customers refused most`);
  });
});
