import { z } from "zod";
import { CLASS_NAME_PATTERN, QUOTA_PERIODS } from "@/lib/vocabulary";
import { MAX_EXPIRY_MS } from "./customer.schema";
import { plainText } from "./text.schema";
import { timeZoneSchema as timeZone } from "./time-zone.schema";

/** MAX_GRANT_EXTRA is the most one grant may add to a quota for one period. */
export const MAX_GRANT_EXTRA = 1_000_000_000;

const EXTRA_RULE = `Extra must be a whole number from 1 to ${MAX_GRANT_EXTRA.toLocaleString("en")}`;
const START_RULE =
  "Period start must be a whole number of milliseconds since 1970 (UTC), no later than the year 9999";

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
    timeZone,
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
