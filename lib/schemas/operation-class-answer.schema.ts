import { z } from "zod";
import { classNameSchema } from "./operation-class.schema";

/**
 * classViewSchema is an operation class as operators see it: its name, description, creation
 * time (ms), whether it is a default one (read, write: never deleted), and how many plans have
 * limits of it and how many customers have an override of it (a class in use cannot be deleted).
 */
export const classViewSchema = z
  .object({
    name: classNameSchema,
    description: z.string(),
    createdAt: z.number().int(),
    builtIn: z.boolean(),
    plans: z.number().int().nonnegative(),
    overrides: z.number().int().nonnegative(),
  })
  .strict();

/** ClassView is a class as answered. */
export type ClassView = z.infer<typeof classViewSchema>;

/** classesAnswerSchema is GET /api/admin/classes's answer: every class, read and write first. */
export const classesAnswerSchema = z.object({ classes: z.array(classViewSchema) }).strict();

/** ClassesAnswer is the class list's answer. */
export type ClassesAnswer = z.infer<typeof classesAnswerSchema>;

/** classAnswerSchema is the answer of POST /api/admin/classes and PATCH /api/admin/classes/:name. */
export const classAnswerSchema = z.object({ class: classViewSchema }).strict();

/** ClassAnswer is one class's answer. */
export type ClassAnswer = z.infer<typeof classAnswerSchema>;
