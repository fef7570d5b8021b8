import { createServiceToken, serviceTokensOf } from "@/lib/admin/service-tokens";
import { parseBody } from "@/lib/http/body";
import { answer } from "@/lib/http/response";
import { withOperator } from "@/lib/next/operator";
import { respondAs } from "@/lib/next/respond";
import { serviceTokenCreateSchema } from "@/lib/schemas/service-token.schema";
import {
  createdServiceTokenAnswerSchema,
  serviceTokensAnswerSchema,
} from "@/lib/schemas/service-token-answer.schema";

/**
 * GET /api/admin/service-tokens lists the service tokens (prefix, scopes, last use, calls refused
 * in the last hour; never the token) and the refused calls with an unknown token.
 */
export const GET = withOperator(({ runtime }) =>
  answer(serviceTokensAnswerSchema, serviceTokensOf(runtime)),
);

/** POST /api/admin/service-tokens creates a service token; the response carries the token, once. */
export const POST = withOperator(async ({ request, actor, runtime }) => {
  const parsed = await parseBody(request, serviceTokenCreateSchema);
  if (!parsed.ok) return parsed.response;
  return respondAs(
    createdServiceTokenAnswerSchema,
    createServiceToken(runtime, actor, parsed.data),
    (value) => value,
    201,
  );
});
