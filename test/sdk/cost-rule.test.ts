import { describe, expect, it } from "vitest";
import { COST_RULE, MAX_COST } from "@/lib/schemas/cost.schema";
import * as sdk from "@/sdk/src/index";
import { FakeFetch, FakeTimeouts } from "./support/fake-ratekeeper";

describe("the SDK's cost rule", () => {
  // The SDK is its own package and cannot import the app: it mirrors the rule, held equal here.
  it("mirrors the server's: the same ceiling, the same words", () => {
    expect(sdk.MAX_COST).toBe(MAX_COST);
    expect(sdk.COST_RULE).toBe(COST_RULE);
  });

  // Regression: the SDK sent any positive safe integer (1e12 among them) to be refused there.
  it("refuses a cost over the ceiling with a RangeError in those words, without a call", async () => {
    const fake = new FakeFetch();
    const rk = sdk.createRatekeeper({
      url: "http://127.0.0.1:9/",
      token: "rks_test-token",
      fetch: fake.fetch,
      abortAfter: new FakeTimeouts().abortAfter,
      onError: () => {},
    });
    for (const cost of [MAX_COST + 1, 1e12]) {
      const refused = rk.decide({ key: "rk_a", operation: "read", cost });
      await expect(refused).rejects.toBeInstanceOf(RangeError);
      await expect(refused).rejects.toThrow(`${COST_RULE}, got ${cost}`);
    }
    expect(fake.calls).toEqual([]);
  });
});
