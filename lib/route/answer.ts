import type { Refusal } from "@/lib/schemas/problem.schema";

/** answer turns a refusal into its problem response. */
export function answer(refusal: Refusal): Response {
  return new Response(JSON.stringify(refusal.body), {
    status: refusal.status,
    headers: { "Content-Type": "application/problem+json", ...refusal.headers },
  });
}

/** withHeaders sets each header on a response and returns it. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
