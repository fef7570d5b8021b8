import { z } from "zod";

/** loginSchema is the operator's login body. */
export const loginSchema = z
  .object({ password: z.string().min(1, "Password is required").max(1_000) })
  .strict();
