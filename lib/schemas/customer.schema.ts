import { z } from "zod";
import { CUSTOMER_STATUSES } from "@/lib/vocabulary";
import { costSchema } from "./cost.schema";
import { overrideLimitsSchema } from "./limit.schema";
import { classNameSchema } from "./operation-class.schema";
import { plainText } from "./text.schema";

const name = plainText(
  z.string().trim().min(1, "Name is required").max(80, "Name must be at most 80 characters"),
);
const planId = z.number({ error: "Choose a plan" }).int("Choose a plan").positive("Choose a plan");

const ANCHOR_RULE = "Billing day must be a day of the month, from 1 to 31";

/**
 * billingAnchorDaySchema is the day of the month (1..31) a customer's monthly quotas start on;
 * in a month shorter than it, they start on its last day.
 */
export const billingAnchorDaySchema = z
  .number({ error: ANCHOR_RULE })
  .int(ANCHOR_RULE)
  .min(1, ANCHOR_RULE)
  .max(31, ANCHOR_RULE);

/**
 * MAX_EXPIRY_MS is the latest an override may expire: the last millisecond of the year 9999
 * (UTC), the latest date written with a four-digit year.
 */
export const MAX_EXPIRY_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const EXPIRY_RULE =
  "Expiry must be a whole number of milliseconds since 1970 (UTC), or null for none";

/**
 * customerCreateSchema is the body that creates a customer (its API key is generated); without a
 * billing anchor day, it is the UTC day of the month of the creation.
 */
export const customerCreateSchema = z
  .object({ name, planId, billingAnchorDay: billingAnchorDaySchema.optional() })
  .strict();

/** customerUpdateSchema edits a customer's name, plan, status or billing anchor day. */
export const customerUpdateSchema = z
  .object({
    name: name.optional(),
    planId: planId.optional(),
    status: z.enum(CUSTOMER_STATUSES).optional(),
    billingAnchorDay: billingAnchorDaySchema.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "Nothing to change" });

/** overrideSchema sets a customer's limits for one operation, until `expiresAt` (ms) if given. */
export const overrideSchema = z
  .object({
    limits: overrideLimitsSchema,
    expiresAt: z
      .number({ error: EXPIRY_RULE })
      // One message for a number past the range: not also the int check's for an unsafe one.
      .max(MAX_EXPIRY_MS, { error: "Expiry must be no later than the year 9999", abort: true })
      .int(EXPIRY_RULE)
      .positive("Expiry must be a time in the future")
      .nullable()
      .default(null),
  })
  .strict();

/**
 * testRequestSchema asks for one real decision for a customer, as the API would make it: the
 * operation and a cost under the one cost rule (cost.schema.ts), 1 by default.
 */
export const testRequestSchema = z
  .object({
    operation: classNameSchema,
    cost: costSchema.default(1),
  })
  .strict();

/** CustomerCreate is a validated new customer. */
export type CustomerCreate = z.infer<typeof customerCreateSchema>;
/** CustomerUpdate is a validated customer edit. */
export type CustomerUpdate = z.infer<typeof customerUpdateSchema>;
/** OverrideInput is a validated override. */
export type OverrideInput = z.infer<typeof overrideSchema>;
