import { z } from "zod";
import { CLASS_NAME_PATTERN, QUOTA_PERIODS } from "@/lib/vocabulary";
import { MAX_EXPIRY_MS } from "./customer.schema";
import { plainText } from "./text.schema";

/** MAX_GRANT_EXTRA is the most one grant may add to a quota for one period. */
export const MAX_GRANT_EXTRA = 1_000_000_000;

/** MAX_QUOTED_ZONE is how much of an unknown time zone a message repeats (characters). */
const MAX_QUOTED_ZONE = 40;

const EXTRA_RULE = `Extra must be a whole number from 1 to ${MAX_GRANT_EXTRA.toLocaleString("en")}`;
const START_RULE =
  "Period start must be a whole number of milliseconds since 1970 (UTC), no later than the year 9999";

/**
 * timeZoneName returns an IANA time zone's name as this runtime knows it (its case corrected:
 * "europe/paris" is "Europe/Paris"), or null when it knows none by that name. Offsets ("+01:00")
 * are not zones. A link keeps the name it was given ("Asia/Kolkata" is not made "Asia/Calcutta"),
 * so a grant names its zone as the quota it is for does.
 */
export function timeZoneName(value: string): string | null {
  if (!/^[A-Za-z]/.test(value) || value.length > 64) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
}

/**
 * timeZoneSchema is an IANA time zone's name, read as timeZoneName reads it (its case corrected);
 * an unknown name is refused with an example of a known one.
 */
export const timeZoneSchema = z
  .string({ error: "Time zone is required, such as UTC or Europe/Paris" })
  .transform((value, ctx) => {
    const name = timeZoneName(value);
    if (name === null) {
      const shown = value.length > MAX_QUOTED_ZONE ? `${value.slice(0, MAX_QUOTED_ZONE)}…` : value;
      ctx.addIssue({
        code: "custom",
        message: `Unknown time zone ${JSON.stringify(shown)}: use an IANA name, such as UTC or Europe/Paris`,
      });
      return z.NEVER;
    }
    return name;
  });

/**
 * quotaGrantCreateSchema is the body of POST /api/admin/customers/:id/quota-grants: `extra`
 * more of the customer's `operation` quota per `period` in `timeZone`, for the one period that
 * starts at `periodStartMs` (ms since the epoch), with an optional note.
 */
export const quotaGrantCreateSchema = z
  .object({
    operation: z
      .string({ error: "Operation is required: the name of an operation class, such as read" })
      .regex(
        CLASS_NAME_PATTERN,
        "Operation must be a class name: a lowercase letter, then up to 31 lowercase letters, digits or hyphens",
      ),
    period: z.enum(QUOTA_PERIODS, { error: "Period must be day, week or month" }),
    timeZone: timeZoneSchema,
    periodStartMs: z
      .number({ error: START_RULE })
      // One message for a number past the range: not also the int check's for an unsafe one.
      .max(MAX_EXPIRY_MS, { error: START_RULE, abort: true })
      .int(START_RULE)
      .nonnegative(START_RULE),
    extra: z
      .number({ error: EXTRA_RULE })
      .max(MAX_GRANT_EXTRA, { error: EXTRA_RULE, abort: true })
      .int(EXTRA_RULE)
      .positive(EXTRA_RULE),
    note: plainText(z.string().trim().max(200, "Note must be at most 200 characters")).default(""),
  })
  .strict();

/** QuotaGrantCreate is a validated new grant. */
export type QuotaGrantCreate = z.infer<typeof quotaGrantCreateSchema>;
