import { z } from "zod";
import { CLASS_NAME_PATTERN } from "@/lib/vocabulary";
import { plainText } from "./text.schema";

/** CLASS_NAME_RULE says in words what CLASS_NAME_PATTERN accepts. */
export const CLASS_NAME_RULE =
  "A class name is a lowercase letter, then up to 31 lowercase letters, digits or hyphens";

/**
 * classNameSchema is the name of an operation class as any request gives it (a plan's limit, an
 * override, a decision, a new class): a string matching CLASS_NAME_PATTERN. Whether the class
 * exists is the policy's to say.
 */
export const classNameSchema = z
  .string({ error: "operation must be the name of a class, such as read or write" })
  .regex(CLASS_NAME_PATTERN, CLASS_NAME_RULE);

/** isClassName tells whether a value is a well-formed class name, as classNameSchema accepts. */
export function isClassName(value: unknown): value is string {
  return typeof value === "string" && CLASS_NAME_PATTERN.test(value);
}

/** MAX_CLASS_DESCRIPTION is the longest description a class may have: 200 characters. */
export const MAX_CLASS_DESCRIPTION = 200;

const description = plainText(
  z
    .string({ error: "Description must be text" })
    .trim()
    .max(MAX_CLASS_DESCRIPTION, `Description must be at most ${MAX_CLASS_DESCRIPTION} characters`),
);

/**
 * RESERVED_CLASS_NAMES are the names that match CLASS_NAME_PATTERN yet name a property of every
 * JavaScript object: no class may take them.
 */
export const RESERVED_CLASS_NAMES: ReadonlySet<string> = new Set(
  Object.getOwnPropertyNames(Object.prototype).filter((name) => CLASS_NAME_PATTERN.test(name)),
);

/** classCreateSchema is the body that creates an operation class: its name and a description. */
export const classCreateSchema = z
  .object({
    name: z
      .string({ error: "Name is required" })
      .min(1, "Name is required")
      .regex(CLASS_NAME_PATTERN, CLASS_NAME_RULE)
      // Answers key objects by class name: a name every object already has would read as a class.
      .refine((name) => !RESERVED_CLASS_NAMES.has(name), "This name is reserved: choose another"),
    description: description.default(""),
  })
  .strict();

/** ClassCreate is a validated new class. */
export type ClassCreate = z.infer<typeof classCreateSchema>;

/** classUpdateSchema is the body that edits a class: its description (a name never changes). */
export const classUpdateSchema = z.object({ description }).strict();

/** ClassUpdate is a validated class edit. */
export type ClassUpdate = z.infer<typeof classUpdateSchema>;

/** MAX_QUOTED_CLASS is how much of an unknown class a message repeats (characters). */
const MAX_QUOTED_CLASS = 40;

/**
 * unknownClassMessage names a class that does not exist and the ones that do:
 * `Unknown class "x": use one of read, write, exports.` (an over-long name is cut).
 */
export function unknownClassMessage(name: string, classes: Iterable<string>): string {
  const shown = name.length > MAX_QUOTED_CLASS ? `${name.slice(0, MAX_QUOTED_CLASS)}…` : name;
  return `Unknown class ${JSON.stringify(shown)}: use one of ${[...classes].join(", ")}.`;
}
