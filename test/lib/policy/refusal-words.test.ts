import { afterEach, describe, expect, it } from "vitest";
import { createClass } from "@/lib/admin/classes";
import { requestsOf } from "@/lib/policy/refusal";
import { decisionAnswerSchema } from "@/lib/schemas/decision-answer.schema";
import { answerOf } from "../../support/answer-schema";
import {
  type DataPlaneServer,
  postJson,
  serviceToken,
  startDataPlane,
} from "../../support/data-plane";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

describe("requestsOf", () => {
  it("names reads and writes as before, and another class's requests by its name", () => {
    expect(requestsOf("read")).toBe("reads");
    expect(requestsOf("write")).toBe("writes");
    expect(requestsOf("exports")).toBe("requests of the exports class");
    expect(requestsOf("search")).toBe("requests of the search class");
  });
});

describe("a refusal of a class other than read and write, in words", () => {
  let t: TestRuntime;
  let server: DataPlaneServer;
  afterEach(async () => {
    await server.close();
    t.cleanup();
  });

  // Regression: a class's name was made plural by an "s": "reached for exportss."
  it("says which class's requests reached the limit, and which quota is used up", async () => {
    t = createTestRuntime();
    await t.runtime.ready();
    server = await startDataPlane(t.runtime);
    const token = serviceToken(t.runtime).token;
    for (const name of ["exports", "search"]) {
      expect(createClass(t.runtime, "admin", { name, description: "" }).ok).toBe(true);
    }
    t.addPlan("metered", [
      { operation: "exports", count: 1, periodMs: 3_600_000 },
      { operation: "search", count: 1, period: "day" },
    ]);
    const { key } = t.addCustomer("metered");
    const decide = async (operation: string) =>
      answerOf(
        await postJson(`${server.url}/api/v1/decisions`, { key, operation }, token),
        200,
        decisionAnswerSchema,
      );

    expect((await decide("exports")).allowed).toBe(true);
    expect((await decide("exports")).problem?.detail).toBe(
      "Rate limit of the metered plan reached for requests of the exports class.",
    );
    expect((await decide("search")).allowed).toBe(true);
    expect((await decide("search")).problem?.detail).toMatch(
      /^Quota of the metered plan used up for requests of the search class until \d{4}-\d\d-\d\dT/,
    );
  });
});
