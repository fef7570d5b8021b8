import { describe, expect, it } from "vitest";
import {
  billingDayOfDraft,
  describeBillingDay,
  ordinalDay,
} from "@/components/customers/billing-day";

describe("a customer's billing day in words", () => {
  it("writes each day of the month as an ordinal", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 28, 31].map(ordinalDay)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "14th",
      "21st",
      "22nd",
      "23rd",
      "28th",
      "31st",
    ]);
  });

  it("explains a day some months lack, and only those", () => {
    expect(describeBillingDay(14)).toBe("14th of each month");
    expect(describeBillingDay(28)).toBe("28th of each month");
    expect(describeBillingDay(29)).toBe("29th of each month (the last day in shorter months)");
    expect(describeBillingDay(31)).toBe("31st of each month (the last day in shorter months)");
  });

  it("reads the field: empty is the server's default, anything else a number to check", () => {
    expect(billingDayOfDraft(" ")).toBeUndefined();
    expect(billingDayOfDraft(" 14 ")).toBe(14);
    expect(billingDayOfDraft("x")).toBeNaN();
  });
});
