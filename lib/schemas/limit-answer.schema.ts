import { z } from "zod";

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
