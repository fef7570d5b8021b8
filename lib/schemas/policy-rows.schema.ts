import { z } from "zod";
import { CUSTOMER_STATUSES, DEFAULT_CLASSES, SERVICE_TOKEN_SCOPES } from "@/lib/vocabulary";
import { classNameSchema } from "./operation-class.schema";

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
            z
              .object({
                operation: classNameSchema,
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
        })
        .strict(),
    ),
    overrides: z.array(
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
