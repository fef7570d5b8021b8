import { z } from "zod";
import { BUCKET_STORES, REDIS_HEALTHS } from "@/lib/vocabulary";

/**
 * storeStatusSchema is the bucket store, for health checks and the dashboard: memory, or Redis
 * with where the instance stands with it (see REDIS_HEALTHS; absent in memory).
 */
export const storeStatusSchema = z
  .object({ store: z.enum(BUCKET_STORES), redis: z.enum(REDIS_HEALTHS).optional() })
  .strict();

/** StoreStatus is the bucket store's state. */
export type StoreStatus = z.infer<typeof storeStatusSchema>;

/**
 * healthAnswerSchema is GET /api/health's answer. The full app answers "ok" while it runs, with
 * its store status; an edge adds `role: "edge"` and the policy it holds (its revision: the
 * control plane's audit count it was read at), and answers "starting" (503) with `policy: null`
 * until it holds one.
 */
export const healthAnswerSchema = z.union([
  storeStatusSchema.extend({ status: z.literal("ok") }).strict(),
  storeStatusSchema
    .extend({
      status: z.enum(["ok", "starting"]),
      role: z.literal("edge"),
      policy: z.object({ revision: z.number().int().nonnegative() }).strict().nullable(),
    })
    .strict(),
]);

/** HealthAnswer is GET /api/health's answer. */
export type HealthAnswer = z.infer<typeof healthAnswerSchema>;
