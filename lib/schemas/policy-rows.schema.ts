import { z } from "zod";
import {
  CUSTOMER_STATUSES,
  DEFAULT_CLASSES,
  QUOTA_PERIODS,
  SERVICE_TOKEN_SCOPES,
} from "@/lib/vocabulary";
import { isCost } from "./cost.schema";
import { classNameSchema } from "./operation-class.schema";
import { MAX_ROUTE_RULES, patternIssue, ROUTE_METHODS } from "./route-rule.schema";

/**
 * POLICY_ROWS_FORMAT is the version of the policy snapshot's form in Redis: 2 since snapshots
 * carry the operation classes. An edge refuses a snapshot of a later format (a newer control
 * plane wrote it) and keeps the policy it has; it still reads format 1 (no classes: read and
 * write), which a control plane of this version rewrites.
 */
export const POLICY_ROWS_FORMAT = 2;

/** OLDEST_READABLE_FORMAT is the earliest snapshot format an edge of this version decides on. */
export const OLDEST_READABLE_FORMAT = 1;

const id = z.number().int().positive();
/** A SHA-256 digest in hex: the only form in which keys and tokens ever leave the database. */
const digest = z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 hex digest");
/** A limit as the limiter accepts it: whole tokens per whole milliseconds. */
const count = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const periodMs = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const instant = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/**
 * quotaFields are a quota row's calendar: its period and its IANA time zone (as the control
 * plane validated it; an edge that does not know the zone fails to build the snapshot and keeps
 * its policy).
 */
const quotaFields = {
  period: z.enum(QUOTA_PERIODS),
  timeZone: z.string().min(1).max(64),
};
/** A grant's key (lib/policy/quota-grants.ts grantKey): class|period|time zone|period start. */
const grantKey = z
  .string()
  .regex(
    new RegExp(`^[a-z][a-z0-9-]{0,31}\\|(${QUOTA_PERIODS.join("|")})\\|[^|]{1,64}\\|\\d{1,16}$`),
    "must be a grant key: class|period|time zone|period start",
  );

/**
 * policyRowsSchema is the policy snapshot as the control plane writes it to Redis and edges read
 * it: the stored rows (dry-run limits and flags included) a snapshot is built from (lib/policy/snapshot.ts), with API keys and
 * service tokens as their SHA-256 digests only. Strict: a field it does not know is refused
 * rather than dropped, so an edge never decides on half of a newer policy.
 */
export const policyRowsSchema = z
  .object({
    format: z.union([z.literal(OLDEST_READABLE_FORMAT), z.literal(POLICY_ROWS_FORMAT)]),
    // Absent in format 1 (a control plane that knew only read and write); required from 2.
    classes: z.array(classNameSchema).min(1).optional(),
    plans: z.array(
      z
        .object({
          id,
          slug: z.string(),
          name: z.string(),
          limits: z.array(
            z.union([
              z
                .object({
                  operation: classNameSchema,
                  count,
                  periodMs,
                  dryRun: z.boolean().optional(),
                })
                .strict(),
              z
                .object({
                  operation: classNameSchema,
                  count,
                  ...quotaFields,
                  dryRun: z.boolean().optional(),
                })
                .strict(),
            ]),
          ),
        })
        .strict(),
    ),
    customers: z.array(
      z
        .object({
          id,
          name: z.string(),
          status: z.enum(CUSTOMER_STATUSES),
          planId: id,
          apiKeyHash: digest,
          // Optional: a control plane of an older release writes none (see the codec).
          billingAnchorDay: z.number().int().min(1).max(31).optional(),
          // Absent when the customer has no grant of a period that may be current.
          grants: z.record(grantKey, count).optional(),
        })
        .strict(),
    ),
    overrides: z.array(
      z.union([
        z
          .object({
            customerId: id,
            operation: classNameSchema,
            count,
            periodMs,
            dryRun: z.boolean(),
            expiresAt: instant.nullable(),
          })
          .strict(),
        z
          .object({
            customerId: id,
            operation: classNameSchema,
            count,
            ...quotaFields,
            dryRun: z.boolean(),
            expiresAt: instant.nullable(),
          })
          .strict(),
      ]),
    ),
    serviceTokens: z.array(
      z
        .object({
          id,
          name: z.string(),
          tokenHash: digest,
          scopes: z.array(z.enum(SERVICE_TOKEN_SCOPES)),
        })
        .strict(),
    ),
    // Optional: a control plane of an older version writes none (their calls count as unknown).
    revokedServiceTokens: z
      .array(z.object({ id, name: z.string(), tokenHash: digest }).strict())
      .optional(),
    // Optional: absent (an older control plane, or no rules) means no route rules.
    routeRules: z
      .array(
        z
          .object({
            method: z.enum(ROUTE_METHODS),
            pattern: z.string().refine((p) => patternIssue(p) === null, "must be a route pattern"),
            unmetered: z.boolean(),
            operation: classNameSchema.nullable(),
            cost: z.number().refine(isCost, "must be a cost").nullable(),
          })
          .strict()
          .refine((r) => !r.unmetered || (r.operation === null && r.cost === null), {
            message: "an unmetered rule has no class or cost",
          }),
      )
      .max(MAX_ROUTE_RULES)
      .optional(),
  })
  .strict()
  .superRefine((rows, ctx) => {
    if (rows.format >= 2 && rows.classes === undefined) {
      ctx.addIssue({ code: "custom", path: ["classes"], message: "format 2 names its classes" });
    }
    // Every limit and override names a class the snapshot has, as the foreign keys hold it.
    const classes = new Set<string>(rows.classes ?? DEFAULT_CLASSES);
    rows.plans.forEach((plan, p) => {
      plan.limits.forEach((l, i) => {
        if (!classes.has(l.operation)) {
          ctx.addIssue({
            code: "custom",
            path: ["plans", p, "limits", i, "operation"],
            message: `unknown class ${JSON.stringify(l.operation)}`,
          });
        }
      });
    });
    rows.overrides.forEach((o, i) => {
      if (!classes.has(o.operation)) {
        ctx.addIssue({
          code: "custom",
          path: ["overrides", i, "operation"],
          message: `unknown class ${JSON.stringify(o.operation)}`,
        });
      }
    });
  });

/** PolicyRowsWire is a validated policy snapshot as read from Redis. */
export type PolicyRowsWire = z.infer<typeof policyRowsSchema>;
