import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import {
  decisionAnswerSchema,
  decisionBatchAnswerSchema,
  serviceTokenAnswerSchema,
} from "@/lib/schemas/decision-answer.schema";
import { healthAnswerSchema } from "@/lib/schemas/health-answer.schema";
import { problemSchema } from "@/lib/schemas/problem.schema";
import { answerOf, parsedAs, refusesExtra } from "../../support/answer-schema";
import {
  type DataPlaneServer,
  type DecisionCalls,
  decisionCalls,
  postJson,
  serviceToken,
  startDataPlane,
} from "../../support/data-plane";
import { createTestRuntime, type TestRuntime } from "../../support/runtime";

// The decision API's answers parse strictly against their schemas (lib/schemas/decision-answer
// .schema.ts) as the data plane wrote them: it builds them typed by the schemas and writes them
// without zod, so this is where a field it adds, drops or retypes is caught.

let t: TestRuntime;
let server: DataPlaneServer;
let token: string;
let calls: DecisionCalls;
const decide = (body: unknown) => calls.decide(body);
const batch = (decisions: unknown[]) => calls.batch(decisions);

beforeEach(async () => {
  t = createTestRuntime();
  server = await startDataPlane(t.runtime);
  token = serviceToken(t.runtime).token;
  calls = decisionCalls(server.url, token);
});
afterEach(async () => {
  await server.close();
  t.cleanup();
});

describe("the decision API's answers match their schemas", () => {
  it("a single decision of every reason answers its schema", async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await decide({ key: t.demoKey, operation: "read" }));
    answers.push(await decide({ customerId: t.demoId, operation: "write", cost: 1, peek: true }));
    answers.push(await decide({ key: t.demoKey, operation: "read", cost: 50 }));
    answers.push(await decide({ key: "rk_nobody", operation: "read" }));
    answers.push(await decide({ customerId: 99_999, operation: "write" }));
    const suspended = t.addCustomer("free", "Suspended Co");
    t.suspend(suspended.id);
    answers.push(await decide({ key: suspended.key, operation: "read" }));
    const reasons = [];
    for (const answer of answers) {
      reasons.push((await answerOf(answer, 200, decisionAnswerSchema)).reason);
    }
    expect(new Set(reasons)).toEqual(
      new Set(["ok", "rate_limited", "cost_exceeds_limit", "unknown_key", "suspended"]),
    );
  });

  it("the problem body of a refused decision names only members the problem schema knows", async () => {
    for (let i = 0; i < 5; i++) await decide({ key: t.demoKey, operation: "read" });
    const refused = await answerOf(
      decide({ key: t.demoKey, operation: "read" }),
      200,
      decisionAnswerSchema,
    );
    expect(refused.problem?.["violated-policies"]).toEqual(["read-5-per-1s"]);
    expect(parsedAs(refused.problem, problemSchema).retryAfterSeconds).toBe(1);
    expect(refusesExtra(decisionAnswerSchema, refused, [])).toBe(true);
    expect(refusesExtra(decisionAnswerSchema, refused, ["problem"])).toBe(true);
    expect(refusesExtra(decisionAnswerSchema, refused, ["limit"])).toBe(true);
    expect(refusesExtra(decisionAnswerSchema, refused, ["customer", "plan"])).toBe(true);
  });

  it("a batch answers its schema, each result in the order asked", async () => {
    const answer = await answerOf(
      batch([
        { key: t.demoKey, operation: "read" },
        { customerId: t.demoId, operation: "write" },
        { customerId: t.demoId, operation: "write" },
        { key: "rk_nobody", operation: "read" },
        { key: t.demoKey, operation: "read", cost: 6 },
      ]),
      200,
      decisionBatchAnswerSchema,
    );
    expect(answer.results.map((r) => r.reason)).toEqual([
      "ok",
      "ok",
      "rate_limited",
      "unknown_key",
      "cost_exceeds_limit",
    ]);
    expect(refusesExtra(decisionBatchAnswerSchema, answer, [])).toBe(true);
    expect(refusesExtra(decisionBatchAnswerSchema, answer, ["results", 0])).toBe(true);
  });

  it("GET /api/v1/service-token answers its schema", async () => {
    const res = await fetch(`${server.url}/api/v1/service-token`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const answer = await answerOf(res, 200, serviceTokenAnswerSchema);
    expect(answer.serviceToken.scopes).toEqual(["decide"]);
    expect(refusesExtra(serviceTokenAnswerSchema, answer, ["serviceToken"])).toBe(true);
  });

  it("the decision API's own refusals are problem documents of the problem schema", async () => {
    const refusals = [
      postJson(`${server.url}/api/v1/decisions`, { key: t.demoKey, operation: "read" }),
      postJson(`${server.url}/api/v1/decisions`, { key: t.demoKey, operation: "read" }, "rks_x"),
      decide({ key: t.demoKey, operation: "delete", colour: "blue" }),
      batch([]),
    ];
    const statuses = [];
    for (const refusal of refusals) {
      const res = await refusal;
      statuses.push(res.status);
      parsedAs(await res.json(), problemSchema);
    }
    expect(statuses).toEqual([401, 401, 400, 400]);
  });

  it("GET /api/health answers its schema", async () => {
    const answer = await answerOf(health(), 200, healthAnswerSchema);
    expect(answer).toEqual({ status: "ok", store: "memory" });
    expect(refusesExtra(healthAnswerSchema, answer, [])).toBe(true);
  });
});
