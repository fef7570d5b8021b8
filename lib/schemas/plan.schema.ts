import { z } from "zod";
import { limitRowsSchema } from "./limit.schema";
import { searchParam } from "./list.schema";
import { plainText } from "./text.schema";

const slug = z
  .string()
  .trim()
  .min(1, "Slug is required")
  .max(40, "Slug must be at most 40 characters")
  .regex(/^[a-z0-9][a-z0-9-]*$/, "Use lowercase letters, digits and dashes");
const name = plainText(
  z.string().trim().min(1, "Name is required").max(80, "Name must be at most 80 characters"),
);
const description = plainText(
  z.string().trim().max(500, "Description must be at most 500 characters"),
  "block",
);

/** planCreateSchema is the body that creates a plan with its limits. */
export const planCreateSchema = z
  .object({ slug, name, description: description.default(""), limits: limitRowsSchema.default([]) })
  .strict();

/** planUpdateSchema is the body that edits a plan; limits, when given, replace all of them. */
export const planUpdateSchema = z
  .object({
    slug: slug.optional(),
    name: name.optional(),
    description: description.optional(),
    limits: limitRowsSchema.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "Nothing to change" });

/** PlanCreate is a validated new plan. */
export type PlanCreate = z.infer<typeof planCreateSchema>;
/** PlanUpdate is a validated plan edit. */
export type PlanUpdate = z.infer<typeof planUpdateSchema>;

/** plansQuerySchema is the plans page's URL: `q` narrows the list by name or slug. */
export const plansQuerySchema = z.object({ q: searchParam.optional() }).strict();
