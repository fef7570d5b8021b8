import { expect, pick, test, unique } from "./fixtures";

test.describe("simulator", () => {
  test("a steady pattern's totals match the limiter's arithmetic", async ({ page, signIn }) => {
    await signIn();
    await page.goto("/simulator");
    await page.getByLabel("Count for limit 1").fill("10");
    await page.getByLabel("Period for limit 1").fill("1");
    await page.getByLabel("Unit for limit 1").selectOption("s");
    await page.getByLabel("Pattern").selectOption("steady");
    await page.getByLabel("Requests per second").fill("20");
    await page.getByLabel("For (seconds)").fill("5");
    await page.getByRole("button", { name: "Simulate" }).click();

    // 10 per second, a request every 50 ms: the full bucket and the tokens earned meanwhile
    // carry the first 19 requests (t = 0..900 ms); then every other request passes, 10 a
    // second, for the 4 seconds left: 19 + 40 = 59 of 100.
    await expect(page.getByTestId("sim-requests")).toHaveText("100");
    await expect(page.getByTestId("sim-allowed")).toHaveText("59");
    await expect(page.getByTestId("sim-denied")).toHaveText("41");
    await expect(page.getByTestId("sim-allowed-share")).toHaveText("59%");
    await expect(
      page.getByRole("figure", { name: "Simulated allowed and denied requests over time" }),
    ).toBeVisible();
  });

  test("a plan's limits, edited in place, against bursts", async ({ page, admin, signIn }) => {
    const plan = await admin.createPlan(
      [
        { operation: "read", count: 10, periodMs: 1_000 },
        { operation: "write", count: 2, periodMs: 1_000 },
      ],
      unique("Sim"),
    );
    await signIn();
    await page.goto("/simulator");
    await pick(page, "Start from a plan", plan.name);
    await expect(page.getByLabel("Operation")).toHaveValue("read");
    await expect(page.getByLabel("Count for limit 1")).toHaveValue("10");
    await page.getByLabel("Pattern").selectOption("bursts");
    await page.getByLabel("Requests per burst").fill("15");
    await page.getByLabel("Every (seconds)").fill("0.5");
    await page.getByLabel("For (seconds)").fill("2");
    await page.getByRole("button", { name: "Simulate" }).click();

    // Bursts at 0, 500, 1000, 1500 ms: 10 from the full bucket, then the 5 tokens earned in
    // each 500 ms: 10 + 5 + 5 + 5 = 25 of 60.
    await expect(page.getByTestId("sim-requests")).toHaveText("60");
    await expect(page.getByTestId("sim-allowed")).toHaveText("25");
    await expect(page.getByTestId("sim-denied")).toHaveText("35");
    await expect(page.getByTestId("sim-allowed-share")).toHaveText("41.7%");

    // Edit the plan's limit in place: 20 per second (a token is 50 ms). The first burst takes
    // 15 and leaves 5; the next finds those 5 plus 10 earned in 500 ms, so all 15 pass; the
    // last two find only the 10 earned since: 15 + 15 + 10 + 10 = 50 of 60. Nothing is saved.
    await page.getByLabel("Count for limit 1").fill("20");
    await expect(page.getByText("edited, not saved")).toBeVisible();
    await page.getByRole("button", { name: "Simulate" }).click();
    await expect(page.getByTestId("sim-allowed")).toHaveText("50");
    await expect(page.getByTestId("sim-denied")).toHaveText("10");
  });

  test("pasted timestamps, and errors at the fields", async ({ page, signIn }) => {
    await signIn();
    await page.goto("/simulator");
    await page.getByLabel("Count for limit 1").fill("2");
    await page.getByLabel("Period for limit 1").fill("1");
    await page.getByLabel("Pattern").selectOption("timestamps");
    const timestamps = page.getByLabel("Timestamps (ms from the start)");
    await timestamps.fill("0, 0, soon");
    await page.getByRole("button", { name: "Simulate" }).click();
    await expect(page.getByText("“soon” is not a whole number of milliseconds")).toBeVisible();
    await expect(page.getByTestId("sim-allowed")).toHaveCount(0);

    // 2 per second: 0 and 0 empty the bucket; 0, 100 and 150 find nothing; at 1000 ms the
    // two tokens are back.
    await timestamps.fill("1000\n0, 0, 0\n100, 150\n1000");
    await page.getByRole("button", { name: "Simulate" }).click();
    await expect(page.getByTestId("sim-requests")).toHaveText("7");
    await expect(page.getByTestId("sim-allowed")).toHaveText("4");
    await expect(page.getByTestId("sim-denied")).toHaveText("3");
    await expect(page.getByTestId("sim-allowed-share")).toHaveText("57.1%");
  });

  // Regression: typing part of a plan's name, then Enter, picked nothing.
  test("typing part of a plan's name highlights the first match, and Enter picks it", async ({
    page,
    admin,
    signIn,
  }) => {
    const plan = await admin.createPlan(
      [{ operation: "read", count: 7, periodMs: 1_000 }],
      unique("Typed"),
    );
    await signIn();
    await page.goto("/simulator");
    const picker = page.getByRole("combobox", { name: "Start from a plan", exact: true });
    await picker.fill(plan.name.slice(0, -2));
    await expect(page.getByRole("option", { name: new RegExp(plan.name) })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await picker.press("Enter");
    await expect(picker).toHaveValue(plan.name);
    await expect(page.getByLabel("Count for limit 1")).toHaveValue("7");
  });

  // Regression: a count past 2^53 said "Count must be a whole number"; a huge rate "Too many
  // requests a second" beside "This pattern makes 1,000,000,000,000,000,000,000 requests".
  test("a huge count or rate says the bound it is past", async ({ page, signIn }) => {
    await signIn();
    await page.goto("/simulator");
    await page.getByLabel("Count for limit 1").fill("99999999999999999999");
    await page.getByLabel("Requests per second").fill("99999999999999999999");
    await page.getByRole("button", { name: "Simulate" }).click();
    await expect(page.getByLabel("Count for limit 1")).toHaveAccessibleDescription(
      "Count must be at most 1,000,000",
    );
    await expect(page.getByLabel("Requests per second")).toHaveAccessibleDescription(
      "At most 200,000 requests a second",
    );
    await expect(page.getByText(/This pattern makes/)).toHaveCount(0);

    // A pattern too large as a whole says how many the simulator runs, and what to change.
    await page.getByLabel("Requests per second").fill("100000");
    await page.getByRole("button", { name: "Simulate" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "This pattern makes" })).toHaveText(
      "This pattern makes 1,000,000 requests; the simulator runs at most 200,000: lower the rate or shorten the time",
    );
  });
});

test.describe("simulator and what the server would answer", () => {
  // Regression: a cost of 1,000,000 against 10 per second showed only "Denied 200", where the
  // server refuses every such request with 413 however long the customer waits.
  test("a cost above a limit's count says it can never pass: the server answers 413", async ({
    page,
    signIn,
  }) => {
    await signIn();
    await page.goto("/simulator");
    await page.getByLabel("Count for limit 1").fill("10");
    await page.getByLabel("Period for limit 1").fill("1");
    await page.getByLabel("Unit for limit 1").selectOption("s");
    await page.getByRole("button", { name: "+ Add limit" }).click();
    await page.getByLabel("Count for limit 2").fill("1000000");
    await page.getByLabel("Period for limit 2").fill("1");
    await page.getByLabel("Unit for limit 2").selectOption("d");
    await page.getByLabel("Pattern").selectOption("steady");
    await page.getByLabel("Requests per second").fill("20");
    await page.getByLabel("For (seconds)").fill("10");
    await page.getByLabel("Cost per request").fill("1000000");
    await page.getByRole("button", { name: "Simulate" }).click();

    await expect(page.getByTestId("sim-denied")).toHaveText("200");
    await expect(page.getByTestId("sim-never-passes")).toHaveText(
      "A cost of 1,000,000 can never pass the 10 per second limit: the server answers 413 to every such request, however long it waits.",
    );

    // A cost every limit can hold says nothing of the kind.
    await page.getByLabel("Cost per request").fill("10");
    await page.getByRole("button", { name: "Simulate" }).click();
    await expect(page.getByTestId("sim-allowed")).not.toHaveText("0");
    await expect(page.getByTestId("sim-never-passes")).toHaveCount(0);
  });

  // Regression: after a valid run, an invalid cost showed its error with the old result below
  // it, as if it were the answer to the new input.
  test("an invalid input after a run marks the previous result out of date", async ({
    page,
    signIn,
  }) => {
    await signIn();
    await page.goto("/simulator");
    await page.getByLabel("Count for limit 1").fill("10");
    await page.getByLabel("Pattern").selectOption("steady");
    await page.getByLabel("Requests per second").fill("20");
    await page.getByLabel("For (seconds)").fill("5");
    await page.getByRole("button", { name: "Simulate" }).click();
    await expect(page.getByTestId("sim-allowed")).toHaveText("59");
    const stale = page.getByTestId("sim-stale");
    await expect(stale).toHaveCount(0);

    await page.getByLabel("Cost per request").fill("0");
    await page.getByRole("button", { name: "Simulate" }).click();
    await expect(page.getByText("Fix the fields marked above.")).toBeVisible();
    await expect(stale).toHaveText(
      "Out of date: this result is for the inputs of the last run, not the fields above.",
    );
    await expect(page.getByRole("region", { name: "Result" })).toHaveAttribute(
      "aria-describedby",
      /sim-stale/,
    );

    // A valid run again: the new result, up to date.
    await page.getByLabel("Cost per request").fill("2");
    await page.getByRole("button", { name: "Simulate" }).click();
    await expect(stale).toHaveCount(0);
    await expect(page.getByText("cost 2 per request")).toBeVisible();
  });
});

test.describe("simulator and dry-run limits", () => {
  test("a plan's dry-run limit never denies in the simulator and says what it would have refused", async ({
    page,
    admin,
    signIn,
  }) => {
    const plan = await admin.createPlan(
      [
        { operation: "read", count: 3, periodMs: 1_000 },
        { operation: "read", count: 2, periodMs: 1_000, dryRun: true },
      ],
      unique("SimDry"),
    );
    await signIn();
    await page.goto("/simulator");
    await pick(page, "Start from a plan", plan.name);
    await expect(page.getByLabel("Dry run for limit 2")).toBeChecked();
    await expect(page.getByLabel("Dry run for limit 1")).not.toBeChecked();
    await page.getByLabel("Pattern").selectOption("bursts");
    await page.getByLabel("Requests per burst").fill("15");
    await page.getByLabel("Every (seconds)").fill("1");
    await page.getByLabel("For (seconds)").fill("10");
    await page.getByRole("button", { name: "Simulate" }).click();

    // As the server decides: the enforced 3/s admits 3 a second (30), the dry-run 2/s takes 2
    // of them and would have refused the third (10). Regression: the simulator enforced the
    // dry-run limit too and said 20 allowed.
    await expect(page.getByTestId("sim-requests")).toHaveText("150");
    await expect(page.getByTestId("sim-allowed")).toHaveText("30");
    await expect(page.getByTestId("sim-denied")).toHaveText("120");
    await expect(
      page.getByText("3 per second; dry run: 2 per second", { exact: false }),
    ).toBeVisible();
    const dryRun = page.getByRole("region", { name: "Dry-run limits" });
    await expect(dryRun.getByTestId("sim-dry-run-total")).toContainText(
      "would have refused 10 of 30 allowed (33.3%)",
    );
    await expect(dryRun.getByRole("row", { name: /2 per second dry run/ })).toContainText(
      "10 of 30 allowed",
    );
  });
});
