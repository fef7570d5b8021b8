import { classesOf, createClass } from "@/lib/admin/classes";
import { parseBody } from "@/lib/http/body";
import { answer } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { classCreateSchema } from "@/lib/schemas/operation-class.schema";
import {
  classAnswerSchema,
  classesAnswerSchema,
} from "@/lib/schemas/operation-class-answer.schema";

/**
 * GET /api/admin/classes lists the operation classes, read and write first, each with how many
 * plans and customers' overrides use it.
 */
export const GET = withOperator(({ runtime }) =>
  answer(classesAnswerSchema, { classes: classesOf(runtime) }),
);

/** POST /api/admin/classes creates an operation class (name, description): usable at once. */
export const POST = withOperator(async ({ request, actor, runtime }) => {
  const parsed = await parseBody(request, classCreateSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(
    classAnswerSchema,
    createClass(runtime, actor, parsed.data),
    (value) => ({ class: value }),
    201,
  );
});
