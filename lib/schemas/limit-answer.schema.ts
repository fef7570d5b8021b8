import { z } from "zod";
import { QUOTA_PERIODS } from "@/lib/vocabulary";

/**
 * limitShapeSchema is a limit as every answer shows it: `count` tokens per `periodMs` ms, both
 * whole and positive. The answers' limits (a plan's, an override's, a bucket's, a dry-run
 * report's) extend it with what they add.
 */
export const limitShapeSchema = z
  .object({ count: z.number().int().positive(), periodMs: z.number().int().positive() })
  .strict();

/** LimitShapeAnswer is a limit as answered: `count` tokens per `periodMs` ms. */
export type LimitShapeAnswer = z.infer<typeof limitShapeSchema>;

/**
 * quotaShapeSchema is a quota as every answer shows it: `count` requests per calendar `period`
 * ("day", "week" or "month") of `timeZone` (an IANA name; UTC when absent).
 */
export const quotaShapeSchema = z
  .object({
    count: z.number().int().positive(),
    period: z.enum(QUOTA_PERIODS),
    timeZone: z.string().optional(),
  })
  .strict();

/** QuotaShapeAnswer is a quota as answered: `count` requests per calendar `period`. */
export type QuotaShapeAnswer = z.infer<typeof quotaShapeSchema>;
