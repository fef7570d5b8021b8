import { deleteClass, updateClass } from "@/lib/admin/classes";
import { parseBody } from "@/lib/http/body";
import { notFound } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respond, respondAs } from "@/lib/next/respond";
import { classUpdateSchema, isClassName } from "@/lib/schemas/operation-class.schema";
import { classAnswerSchema } from "@/lib/schemas/operation-class-answer.schema";

type Params = { name: string };

/** PATCH /api/admin/classes/:name edits a class's description. */
export const PATCH = withOperator<Params>(async ({ request, params, actor, runtime }) => {
  if (!isClassName(params.name)) return notFound("Class not found");
  const parsed = await parseBody(request, classUpdateSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(
    classAnswerSchema,
    updateClass(runtime, actor, params.name, parsed.data),
    (value) => ({ class: value }),
  );
});

/**
 * DELETE /api/admin/classes/:name deletes a class no plan or override uses (409 naming them
 * otherwise, and for read and write, which always exist).
 */
export const DELETE = withOperator<Params>(({ params, actor, runtime }) => {
  if (!isClassName(params.name)) return notFound("Class not found");
  return respond(deleteClass(runtime, actor, params.name), () => null, 204);
});
