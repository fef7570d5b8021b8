import fc from "fast-check";

// Headers and URL parts, hostile and valid. `{session}`, `{stale}`, `{caller}`, `{throttled}`,
// `{suspended}` and `{demo}` are placeholders the fuzz world fills in when it sends the request
// (see world.ts): a live operator session, an ended one, and the API keys of its customers.

/** latin1 is header-safe junk: every byte a header value may carry (no NUL, CR or LF). */
const latin1 = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((code) => code !== 0x7f)
    .map((code) => String.fromCharCode(code)),
  maxLength: 60,
});

/** ODD_COOKIES are Cookie headers with no session, a malformed one, or the session amid junk. */
export const ODD_COOKIES: readonly (string | undefined)[] = [
  undefined,
  "rk_session=%E0%A4%A",
  "rk_session=%",
  "rk_session=%%",
  "rk_session=",
  "rk_session",
  "rk_session={stale}",
  "rk_session={session}%",
  "rk_session=%E0%A4%A; rk_session={session}",
  "theme=%E0%A4%A; rk_session={session}",
  "rk_session={session}; other=%",
  'rk_session="{session}"',
  "RK_SESSION={session}",
  "=; ;;rk_session={session}",
  `rk_session=${"A".repeat(8_192)}`,
];

/** cookieHeader is a Cookie header: the session, none, or malformed (`rk_session=%E0%A4%A`). */
export const cookieHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 5, arbitrary: fc.constant("rk_session={session}") },
  { weight: 6, arbitrary: fc.constantFrom(...ODD_COOKIES) },
  { weight: 1, arbitrary: latin1 },
  { weight: 1, arbitrary: latin1.map((junk) => `rk_session=${junk}`) },
);

/** ODD_AUTHORIZATIONS are other customers' keys, no key, and malformed Authorization headers. */
export const ODD_AUTHORIZATIONS: readonly (string | undefined)[] = [
  "Bearer {throttled}",
  "Bearer {suspended}",
  "Bearer {demo}",
  undefined,
  "bearer {caller}",
  "Bearer\t{caller}",
  "Bearer   {caller}  ",
  "Bearer {caller}x",
  "Bearer x{caller}",
  "Bearer {caller} {caller}",
  "Basic {caller}",
  "{caller}",
  "Bearer",
  "Bearer ",
  "Bearer rk_",
  "Bearer %E0%A4%A",
  `Bearer ${"k".repeat(65_536)}`,
];

/** authorizationHeader is a Bearer key of each kind of customer, none, or a malformed one. */
export const authorizationHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant("Bearer {caller}") },
  { weight: 7, arbitrary: fc.constantFrom(...ODD_AUTHORIZATIONS) },
  { weight: 1, arbitrary: latin1.map((junk) => `Bearer ${junk}`) },
);

/** SiteHeaders are what a browser says about where a request comes from. */
export interface SiteHeaders {
  origin?: string;
  secFetchSite?: string;
}

/** THIS_HOST is the Host the fuzz suite's requests are addressed to, as a server sees it. */
export const THIS_HOST = "test";
/** THIS_ORIGIN is the origin of THIS_HOST's own pages. */
export const THIS_ORIGIN = `http://${THIS_HOST}`;

/** SAME_ORIGIN is what a browser sends with a request from this server's own pages. */
export const SAME_ORIGIN: SiteHeaders = { origin: THIS_ORIGIN, secFetchSite: "same-origin" };

/** SITES are what browsers (and scripts, which send neither header) say about a request. */
export const SITES: readonly SiteHeaders[] = [
  {},
  { origin: THIS_ORIGIN },
  SAME_ORIGIN,
  { secFetchSite: "none" },
  { origin: "http://evil.example", secFetchSite: "cross-site" },
  { origin: "http://evil.example" },
  { secFetchSite: "cross-site" },
  { origin: "http://sub.test", secFetchSite: "same-site" },
  { origin: "http://test:8080" },
  { origin: "null" },
  { origin: "http://evil.example", secFetchSite: "same-origin" },
  { secFetchSite: "gibberish" },
];

/** siteHeaders is a same-origin, cross-site, same-site or header-less (script) request. */
export const siteHeaders: fc.Arbitrary<SiteHeaders> = fc.constantFrom(...SITES);

/** JSON_TYPES declare a JSON body. */
export const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "Application/JSON",
  'application/json;charset="UTF-8"',
] as const;
/**
 * NON_JSON_TYPES declare other bodies (the first four are sent cross-site with no preflight), or
 * JSON in a charset other than UTF-8, which is not the JSON the server reads.
 */
export const NON_JSON_TYPES = [
  "text/plain",
  "text/plain;charset=UTF-8",
  "multipart/form-data; boundary=fuzz",
  "application/x-www-form-urlencoded",
  "application/xml",
  "application/json; charset=latin1",
  'application/json; charset="utf-16"',
] as const;

/** contentType is a body's declared type: JSON (mostly), another type, or none at all. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...JSON_TYPES) },
  { weight: 3, arbitrary: fc.constantFrom(...NON_JSON_TYPES) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/**
 * isJsonType says whether a Content-Type declares JSON in UTF-8: media type application/json,
 * with no charset parameter or charset utf-8 (any case, quoted or not).
 */
export function isJsonType(value: string | null | undefined): boolean {
  const [type, ...parameters] = (value ?? "").split(";");
  if (type?.trim().toLowerCase() !== "application/json") return false;
  return parameters.every((parameter) => {
    const [name, charset] = parameter.split("=").map((part) => part.trim().toLowerCase());
    return name !== "charset" || charset === "utf-8" || charset === '"utf-8"';
  });
}

/** ODD_SEGMENTS are path segments and query values as sent: malformed, huge, fractional, empty. */
export const ODD_SEGMENTS = [
  "%E0%A4%A",
  "%",
  "%%",
  "%G1",
  "%C0%AF",
  "%ED%A0%80",
  "%FF",
  "%E0%A4",
  "%00",
  "1%00",
  "-1",
  "0",
  "00",
  "01",
  "-0",
  "1.5",
  "2.5",
  "1e3",
  "0x1F",
  "+1",
  "%201",
  "1%20",
  "9007199254740992",
  "9007199254740993",
  "99999999999999999999",
  "1e308",
  "Infinity",
  "NaN",
  "",
  "abc",
  "READ",
  "Read",
  "%72ead",
  "%31",
  "read%00",
  "__proto__",
  "constructor",
  "toString",
];

/**
 * hostileSegment is a path segment as sent on the wire (percent-encoded): malformed encodings,
 * huge, negative and fractional numbers, unicode, empty.
 */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...ODD_SEGMENTS) },
  { weight: 1, arbitrary: fc.integer({ min: -1_000_000, max: 0 }).map(String) },
  { weight: 1, arbitrary: fc.double({ noNaN: true }).map(String).map(encodeURIComponent) },
  {
    weight: 1,
    arbitrary: fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }).map((n) => n.toString()),
  },
  {
    weight: 1,
    arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }).map(encodeURIComponent),
  },
);

/** QuerySpec maps each query parameter a route reads to its valid values. */
export type QuerySpec = Record<string, fc.Arbitrary<string>>;

const junkName = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "toString", "%E0%A4%A", "%", "", "a[b]", "x"),
  fc.string({ maxLength: 6 }).map(encodeURIComponent),
);

function joinQuery(pairs: string[]): string {
  return pairs.length > 0 ? `?${pairs.join("&")}` : "";
}

/** validQueryOf is a query string with each parameter of the spec absent or valid. */
export function validQueryOf(spec: QuerySpec): fc.Arbitrary<string> {
  const declared = Object.entries(spec).map(([name, valid]) =>
    fc.option(
      valid.map((value) => `${name}=${value}`),
      { nil: undefined },
    ),
  );
  return fc
    .tuple(...declared)
    .map((pairs) => joinQuery(pairs.filter((pair): pair is string => pair !== undefined)));
}

/**
 * queryOf is a raw query string ("" or "?…", not re-encoded, so malformed escapes arrive as
 * sent): each parameter of the spec absent, valid, hostile or repeated, plus junk parameters.
 */
export function queryOf(spec: QuerySpec): fc.Arbitrary<string> {
  const declared = Object.entries(spec).map(([name, valid]) =>
    fc
      .oneof(
        fc.constant<string[]>([]),
        valid.map((v) => [v]),
        hostileSegment.map((v) => [v]),
        fc.tuple(hostileSegment, valid),
      )
      .map((values) => values.map((value) => `${name}=${value}`)),
  );
  const junk = fc.array(
    fc.oneof(
      fc.tuple(junkName, hostileSegment).map(([name, value]) => `${name}=${value}`),
      junkName,
    ),
    { maxLength: 2 },
  );
  return fc
    .tuple(fc.tuple(...declared), junk)
    .map(([pairs, extra]) => joinQuery([...pairs.flat(), ...extra]));
}
