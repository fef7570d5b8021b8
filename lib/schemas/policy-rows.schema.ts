import { z } from "zod";
import {
  CUSTOMER_STATUSES,
  OPERATIONS,
  QUOTA_PERIODS,
  SERVICE_TOKEN_SCOPES,
} from "@/lib/vocabulary";
import { isCost } from "./cost.schema";
import { MAX_ROUTE_RULES, patternIssue, ROUTE_METHODS } from "./route-rule.schema";

/**
 * POLICY_ROWS_FORMAT is the version of the policy snapshot's form in Redis. An edge refuses a
 * snapshot of another format (a newer control plane wrote it) and keeps the policy it has.
 */
export const POLICY_ROWS_FORMAT = 1;

const id = z.number().int().positive();
/** A SHA-256 digest in hex: the only form in which keys and tokens ever leave the database. */
const digest = z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 hex digest");
/** A limit as the limiter accepts it: whole tokens per whole milliseconds. */
const count = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const periodMs = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const instant = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
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
    format: z.literal(POLICY_ROWS_FORMAT),
    plans: z.array(
      z
        .object({
          id,
          slug: z.string(),
          name: z.string(),
          limits: z.array(
            z
              .object({
                operation: z.enum(OPERATIONS),
                count,
                periodMs,
                dryRun: z.boolean().optional(),
              })
              .strict(),
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
      z
        .object({
          customerId: id,
          operation: z.enum(OPERATIONS),
          count,
          periodMs,
          dryRun: z.boolean(),
          expiresAt: instant.nullable(),
        })
        .strict(),
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
            operation: z.enum(OPERATIONS).nullable(),
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
  .strict();

/** PolicyRowsWire is a validated policy snapshot as read from Redis. */
export type PolicyRowsWire = z.infer<typeof policyRowsSchema>;
