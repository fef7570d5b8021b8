import { z } from "zod";
import { OPERATIONS } from "@/lib/vocabulary";

/** trafficQuerySchema is GET /api/admin/traffic's query: a window of 1 to 300 seconds, filters. */
export const trafficQuerySchema = z
  .object({
    seconds: z
      .string()
      .regex(/^\d{1,3}$/, "Must be a whole number of seconds")
      .transform(Number)
      .refine((n) => n >= 1 && n <= 300, "Must be between 1 and 300")
      .optional(),
    customerId: z
      .string()
      .regex(/^[1-9]\d{0,15}$/, "Must be a positive whole number")
      .transform(Number)
      .optional(),
    operation: z.enum(OPERATIONS).optional(),
  })
  .strict();
