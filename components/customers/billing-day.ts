// The words and the draft of a customer's billing day (its billing anchor day), shared by the
// new customer form and the customer's page. Pure: tested without a browser.

const ORDINAL_SUFFIXES: Record<Intl.LDMLPluralRule, string> = {
  zero: "th",
  one: "st",
  two: "nd",
  few: "rd",
  many: "th",
  other: "th",
};
const ordinalRules = new Intl.PluralRules("en-US", { type: "ordinal" });

/** ordinalDay writes a day of the month as an English ordinal: 1st, 2nd, 3rd, 11th, 22nd, 31st. */
export function ordinalDay(day: number): string {
  return `${day}${ORDINAL_SUFFIXES[ordinalRules.select(day)]}`;
}

/** SHORTER_MONTHS says what a billing day past 28 means in a month without it. */
export const SHORTER_MONTHS = "the last day in shorter months";

/**
 * describeBillingDay says when a customer's monthly quotas start: "14th of each month"; a day
 * some months lack (29 to 31) adds that those start on their last day.
 */
export function describeBillingDay(day: number): string {
  const each = `${ordinalDay(day)} of each month`;
  return day > 28 ? `${each} (${SHORTER_MONTHS})` : each;
}

/**
 * billingDayOfDraft reads a billing day field as the API takes it: empty is undefined (the
 * server's default), anything else a number for the schema to check (NaN when it is none).
 */
export function billingDayOfDraft(draft: string): number | undefined {
  const text = draft.trim();
  return text === "" ? undefined : Number(text);
}
