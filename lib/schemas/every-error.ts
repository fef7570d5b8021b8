// By default zod skips an object's or a list's own check (refine, superRefine) once one of its
// fields or rows has failed with an error that stops parsing (a wrong type, an unknown option),
// so a body's errors came one fix at a time. These options run such a check on any object or
// list, so that every error of a body comes at once; the check then reads its fields or rows as
// unknown, since a failed one may be anything.

/** isRecord tells whether a value is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** ANY_OBJECT runs an object's own check on any object, even one with failed fields. */
export const ANY_OBJECT = { when: ({ value }: { value: unknown }) => isRecord(value) };

/** ANY_LIST runs a list's own check on any list, even one with failed rows. */
export const ANY_LIST = { when: ({ value }: { value: unknown }) => Array.isArray(value) };
