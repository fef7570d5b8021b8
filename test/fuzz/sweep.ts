import fc from "fast-check";
import type { DiscoveredRoute } from "./discover";
import {
  type Json,
  JsonObject,
  ODD_NUMBERS,
  ODD_TEXT,
  PROTOTYPE_KEYS,
  WRONG_TYPES,
} from "./hostile-values";
import { NON_JSON_TYPES, ODD_AUTHORIZATIONS, ODD_COOKIES, ODD_SEGMENTS, SITES } from "./http-parts";
import { childrenOf, fromPlain, toJsonText, withChild } from "./json-body";
import { type FuzzRequest, validRequestArb } from "./request";
import type { RouteSpec } from "./route-table";

// The systematic half of the fuzz suite: a valid request, then that request with exactly one
// part replaced by each curated hostile value in turn: every field of the body, every path
// parameter, every query parameter, every header. Random requests find what no one listed;
// the sweep makes sure what someone did list (a NUL in each name, `toString` in each object)
// is sent every run, whatever the seed.

interface Located {
  node: Json;
  path: number[];
}

function* nodesOf(node: Json, path: number[] = []): Generator<Located> {
  yield { node, path };
  const children = childrenOf(node);
  for (let i = 0; i < children.length; i++) yield* nodesOf(children[i] as Json, [...path, i]);
}

function setAt(node: Json, path: number[], value: Json): Json {
  const [index, ...rest] = path;
  if (index === undefined) return value;
  return withChild(node, index, setAt(childrenOf(node)[index] as Json, rest, value));
}

/**
 * sweepBodies is the valid body with one change each: every string and number replaced by each
 * odd value of its type, every value by each wrong type, every object given each
 * prototype-named key and its last key again, and the whole body wrapped in an array.
 */
export function sweepBodies(valid: Json): Json[] {
  const bodies: Json[] = [];
  for (const { node, path } of nodesOf(valid)) {
    const odd = typeof node === "string" ? ODD_TEXT : typeof node === "number" ? ODD_NUMBERS : [];
    for (const value of odd) bodies.push(setAt(valid, path, value));
    if (path.length > 0) for (const value of WRONG_TYPES) bodies.push(setAt(valid, path, value));
    if (node instanceof JsonObject) {
      for (const key of PROTOTYPE_KEYS)
        bodies.push(setAt(valid, path, new JsonObject([...node.entries, [key, 1]])));
      // Its last key given again, with the same value: still two answers to one question.
      const last = node.entries.at(-1);
      if (last) bodies.push(setAt(valid, path, new JsonObject([...node.entries, last])));
    }
  }
  bodies.push([valid]);
  return bodies;
}

/** richest picks the body with the most distinct keys (optional fields present), then the smallest. */
function richest(bodies: unknown[]): Json {
  const keys = (body: Json) =>
    new Set(
      [...nodesOf(body)].flatMap(({ node }) =>
        node instanceof JsonObject ? node.entries.map(([k]) => k) : [],
      ),
    ).size;
  const size = (body: Json) => [...nodesOf(body)].length;
  const candidates = bodies.map(fromPlain);
  candidates.sort((a, b) => keys(b) - keys(a) || size(a) - size(b));
  return candidates[0] as Json;
}

/** sweepRequests is one valid request of the route (from the seed), then each one-part variant. */
export function sweepRequests(
  route: DiscoveredRoute,
  spec: RouteSpec,
  seed: number,
): FuzzRequest[] {
  const [base] = fc.sample(validRequestArb(route, spec), { seed, numRuns: 1 }) as [FuzzRequest];
  const variants: FuzzRequest[] = [base];
  const vary = (change: Partial<FuzzRequest>) => variants.push({ ...base, ...change });
  if (spec.body && base.body) {
    const valid = richest(fc.sample(spec.body, { seed, numRuns: 20 }));
    for (const body of sweepBodies(valid)) vary({ body: { text: toJsonText(body) } });
    for (const type of [...NON_JSON_TYPES, undefined])
      vary({ body: { text: toJsonText(valid) }, contentType: type });
  }
  for (const name of route.params)
    for (const raw of ODD_SEGMENTS) vary({ segments: { ...base.segments, [name]: raw } });
  // Each query parameter odd in turn, the others valid.
  const query = spec.query ?? {};
  const [valid] = fc.sample(fc.record(query), { seed, numRuns: 1 }) as [Record<string, string>];
  for (const name of Object.keys(query)) {
    for (const raw of ODD_SEGMENTS) {
      const pairs = Object.entries({ ...valid, [name]: raw }).map(([k, v]) => `${k}=${v}`);
      vary({ query: `?${pairs.join("&")}` });
    }
  }
  for (const cookie of ODD_COOKIES) vary({ cookie });
  for (const authorization of ODD_AUTHORIZATIONS) vary({ authorization });
  for (const site of SITES) vary({ site });
  return variants;
}
