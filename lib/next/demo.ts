import { notFound } from "@/lib/http/response";
import { getRuntime } from "@/lib/runtime";
import { guarded } from "./guarded";

/**
 * demoRoute serves a route of the demo API (/api/v1/items) only while the demo is on: with
 * RATEKEEPER_DEMO=off it answers 404 (a problem body) before anything else, as a route that does
 * not exist would, so a production install carries no toy routes.
 */
export function demoRoute<A extends unknown[]>(
  handler: (...args: A) => Promise<Response>,
): (...args: A) => Promise<Response> {
  return guarded((...args: A) => (getRuntime().demo ? handler(...args) : notFound()));
}
