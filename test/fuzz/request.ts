import fc from "fast-check";
import type { DiscoveredRoute } from "./discover";
import { hostileJson } from "./hostile-values";
import {
  authorizationHeader,
  contentType,
  cookieHeader,
  hostileSegment,
  queryOf,
  SAME_ORIGIN,
  type SiteHeaders,
  siteHeaders,
  THIS_HOST,
  validQueryOf,
} from "./http-parts";
import { type BodyPayload, bodyOf, toJsonText } from "./json-body";
import { PARAMS, type RouteSpec } from "./route-table";
import type { FuzzWorld } from "./world";

/** FuzzRequest is a generated request, with placeholders the world fills in when it is sent. */
export interface FuzzRequest {
  /** advanceMs moves the world's clock on before the request. */
  advanceMs: number;
  /** segments are the raw (percent-encoded, as on the wire) values of the path parameters. */
  segments: Record<string, string>;
  /** query is "" or a raw "?…". */
  query: string;
  cookie: string | undefined;
  authorization: string | undefined;
  site: SiteHeaders;
  body: BodyPayload | undefined;
  contentType: string | undefined;
}

const READS_NO_BODY = new Set(["GET", "HEAD"]);

/** missingParams lists the path parameters of a route that PARAMS has no generator for. */
export function missingParams(route: DiscoveredRoute): string[] {
  return route.params.filter((name) => !PARAMS[name]);
}

/** Part is one part of a request: its valid values, and any values (mostly hostile ones). */
interface Part<T> {
  weight: number;
  valid: fc.Arbitrary<T>;
  any: fc.Arbitrary<T>;
}

function bodyPart(route: DiscoveredRoute, spec: RouteSpec): Part<BodyPayload | undefined> {
  const none = fc.constant(undefined);
  if (READS_NO_BODY.has(route.method)) return { weight: 0, valid: none, any: none };
  if (!spec.body) {
    const stray = hostileJson.map((v) => ({ text: toJsonText(v) }));
    return { weight: 1, valid: none, any: fc.option(stray, { nil: undefined }) };
  }
  return {
    weight: 8,
    valid: spec.body.map((v) => ({ text: JSON.stringify(v) })),
    any: fc.oneof({ weight: 9, arbitrary: bodyOf(spec.body) }, fc.constant(undefined)),
  };
}

/** partsOf lists a request's parts, each with the weight of its turn at being the hostile one. */
function partsOf(route: DiscoveredRoute, spec: RouteSpec): Record<string, Part<unknown>> {
  const parts: Record<string, Part<unknown>> = {
    query: {
      weight: spec.query ? 2 : 1,
      valid: validQueryOf(spec.query ?? {}),
      any: queryOf(spec.query ?? {}),
    },
    cookie: { weight: 1, valid: fc.constant("rk_session={session}"), any: cookieHeader },
    authorization: { weight: 1, valid: fc.constant("Bearer {caller}"), any: authorizationHeader },
    site: { weight: 1, valid: fc.constantFrom<SiteHeaders>({}, SAME_ORIGIN), any: siteHeaders },
    body: bodyPart(route, spec),
    contentType: { weight: 1, valid: fc.constant("application/json"), any: contentType },
  };
  for (const name of route.params) {
    const param = PARAMS[name];
    if (!param) throw new Error(`No generator for the [${name}] of ${route.key}`);
    parts[`[${name}]`] = {
      weight: 2,
      valid: param.valid,
      any: fc.oneof(param.valid, { weight: 2, arbitrary: hostileSegment }),
    };
  }
  return parts;
}

/** inputParts is how many parts of a route take input of their own: its share of the runs. */
export function inputParts(route: DiscoveredRoute, spec: RouteSpec): number {
  return 1 + (spec.body ? 2 : 0) + route.params.length + (spec.query ? 1 : 0);
}

/**
 * requestArb generates requests for one route. Most are valid but for one part (the body most
 * often), so that hostile input reaches the code behind the checks it passes: a hostile name
 * under a valid session, key, path and content type. The rest are hostile in every part.
 */
export function requestArb(route: DiscoveredRoute, spec: RouteSpec): fc.Arbitrary<FuzzRequest> {
  const parts = partsOf(route, spec);
  const names = Object.keys(parts);
  const focused = fc
    .oneof(
      ...names.map((name) => ({
        weight: (parts[name] as Part<unknown>).weight,
        arbitrary: fc.constant(name),
      })),
    )
    .chain((name) => pick(route, parts, [name]));
  return fc.oneof({ weight: 3, arbitrary: focused }, pick(route, parts, names));
}

/** validRequestArb generates requests that are valid in every part. */
export function validRequestArb(
  route: DiscoveredRoute,
  spec: RouteSpec,
): fc.Arbitrary<FuzzRequest> {
  return pick(route, partsOf(route, spec), []);
}

/** pick builds requests whose `hostile` parts take any value and whose other parts are valid. */
function pick(
  route: DiscoveredRoute,
  parts: Record<string, Part<unknown>>,
  hostile: string[],
): fc.Arbitrary<FuzzRequest> {
  const chosen = Object.fromEntries(
    Object.entries(parts).map(([name, part]) => [
      name,
      hostile.includes(name) ? part.any : part.valid,
    ]),
  );
  return fc.tuple(fc.integer({ min: 0, max: 300 }), fc.record(chosen)).map(([advanceMs, p]) => ({
    advanceMs,
    segments: Object.fromEntries(route.params.map((name) => [name, p[`[${name}]`] as string])),
    query: p.query as string,
    cookie: p.cookie as string | undefined,
    authorization: p.authorization as string | undefined,
    site: p.site as SiteHeaders,
    body: p.body as BodyPayload | undefined,
    contentType: p.contentType as string | undefined,
  }));
}

/** Realized is a request ready for dispatch, with the raw segments of its path parameters. */
export interface Realized {
  request: Request;
  rawParams: Record<string, string>;
}

/** pathOf puts the raw parameter values into the route's path. */
function pathOf(route: DiscoveredRoute, values: Record<string, string>): string {
  return route.path.replace(/\[{1,2}(.+?)\]{1,2}/g, (_, name: string) => values[name] ?? "");
}

/** realize builds the Request the world's placeholders make of a generated request. */
export function realize(world: FuzzWorld, route: DiscoveredRoute, req: FuzzRequest): Realized {
  const values = world.values();
  const rawParams = Object.fromEntries(
    Object.entries(req.segments).map(([name, raw]) => [name, world.resolve(raw, values)]),
  );
  // A server always sees a Host: guards that compare Origin with it must have one to compare.
  const headers = new Headers({ host: THIS_HOST });
  if (req.cookie !== undefined) headers.set("cookie", world.resolve(req.cookie, values));
  if (req.authorization !== undefined)
    headers.set("authorization", world.resolve(req.authorization, values));
  if (req.site.origin !== undefined) headers.set("origin", req.site.origin);
  if (req.site.secFetchSite !== undefined) headers.set("sec-fetch-site", req.site.secFetchSite);
  let body: BodyInit | undefined;
  if (req.body) {
    if (req.contentType !== undefined) headers.set("content-type", req.contentType);
    // A string body would be typed text/plain by fetch: bytes go out with no type at all.
    body =
      "bytes" in req.body
        ? (req.body.bytes as Uint8Array<ArrayBuffer>)
        : req.contentType === undefined
          ? (new TextEncoder().encode(req.body.text) as Uint8Array<ArrayBuffer>)
          : req.body.text;
    // Over HTTP a body always comes with its length (or chunks): the server's guards see it.
    const length =
      "bytes" in req.body ? req.body.bytes.byteLength : Buffer.byteLength(req.body.text);
    headers.set("content-length", String(length));
  }
  const url = `http://${THIS_HOST}${pathOf(route, rawParams)}${world.resolve(req.query, values)}`;
  return { request: new Request(url, { method: route.method, headers, body }), rawParams };
}

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** describe writes a generated request as one line a reader can replay (placeholders kept). */
export function describe(route: DiscoveredRoute, req: FuzzRequest): string {
  const parts = [`${route.method} ${pathOf(route, req.segments)}${clip(req.query, 120)}`];
  if (req.cookie !== undefined) parts.push(`Cookie: ${clip(req.cookie, 80)}`);
  if (req.authorization !== undefined) parts.push(`Authorization: ${clip(req.authorization, 80)}`);
  if (req.site.origin !== undefined) parts.push(`Origin: ${req.site.origin}`);
  if (req.site.secFetchSite !== undefined) parts.push(`Sec-Fetch-Site: ${req.site.secFetchSite}`);
  if (req.body) {
    parts.push(`Content-Type: ${req.contentType ?? "(none)"}`);
    parts.push(
      "bytes" in req.body
        ? `body: ${req.body.bytes.length} bytes, not UTF-8`
        : `body: ${clip(JSON.stringify(req.body.text), 240)}`,
    );
  }
  return parts.join(" | ");
}
