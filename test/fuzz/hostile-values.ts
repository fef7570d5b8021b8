import fc from "fast-check";

/**
 * Raw is a JSON token written as is: numbers JSON.stringify cannot produce (`-0`, `1e999`) and
 * pieces of text (deep nesting) that would overflow a recursive serializer.
 */
export class Raw {
  constructor(readonly text: string) {}
}

/** JsonObject is a JSON object as its list of entries, so keys may repeat or be `__proto__`. */
export class JsonObject {
  constructor(readonly entries: [string, Json][]) {}
}

/** Json is a JSON value the fuzz suite can send, whatever JavaScript would make of it. */
export type Json = null | boolean | number | string | Raw | JsonObject | Json[];

/** PROTOTYPE_KEYS are keys that name members every plain object inherits. */
export const PROTOTYPE_KEYS = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "prototype",
  "isPrototypeOf",
  "__defineGetter__",
  "toLocaleString",
] as const;

/** MAX_BODY_CHARS is the body size the routes refuse above (lib/http MAX_BODY_BYTES): 1 MiB. */
export const MAX_BODY_CHARS = 1_048_576;

const ODD_STRINGS = [
  "",
  " ",
  "   ",
  "\u0000",
  "\u0000abc",
  "abc\u0000",
  "a\u0000b",
  "\u0007\u001b[31mred",
  "\r\n",
  "\t",
  "\u007f",
  "\u0085",
  "\uD800",
  "\uDFFF",
  "a\uD83D",
  "\uDE00b",
  "\u202Eevil\u202C",
  "\u200B",
  "\u200D\uFEFF",
  "\u00A0",
  "\u2028\u2029",
  "e\u0301\u0301\u0301",
  "😀",
  "👩‍👩‍👧‍👦",
  "%E0%A4%A",
  "%",
  "%00",
  "'; DROP TABLE customers; --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-0",
  "1e308",
  "read",
  "write",
  ...PROTOTYPE_KEYS,
];

/** TROUBLE are code points that text fields should refuse or that tools mishandle. */
const TROUBLE = [
  "\u0000",
  "\u0000",
  "\u0001",
  "\u001b",
  "\n",
  "\u007f",
  "\u0085",
  "\uD800",
  "\uDFFF",
  "\u200B",
  "\u202E",
  "\uFEFF",
  "\uFFFF",
];

/** troubled is ordinary text with a troublesome code point before, after or instead of it. */
const troubled = fc
  .tuple(fc.constantFrom(...TROUBLE), fc.string({ minLength: 1, maxLength: 10 }), fc.nat(3))
  .map(
    ([odd, plain, where]) =>
      [`${odd}${plain}`, `${odd}${plain}`, `${plain}${odd}`, odd][where] as string,
  );

/** anyCodeUnit is one UTF-16 code unit: control characters and lone surrogates included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

/** hugeString is a string of 64 KiB up to just past the 1 MiB body limit, of one repeated unit. */
const hugeString = fc
  .record({
    length: fc.constantFrom(65_536, MAX_BODY_CHARS - 64, MAX_BODY_CHARS, MAX_BODY_CHARS + 1),
    unit: fc.constantFrom("a", "\u0000", "é", "\u202E", "😀"),
  })
  .map(({ length, unit }) => unit.repeat(Math.ceil(length / unit.length)));

/** hostileString is an odd, long or huge string: control characters, surrogates, RTL, 1 MiB. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: troubled },
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...ODD_STRINGS), fc.string({ maxLength: 8 }))
      .map(([odd, plain]) => `${plain}${odd}${plain}`),
  },
  { weight: 1, arbitrary: fc.constantFrom(81, 201, 501, 1_001, 10_000).map((n) => "x".repeat(n)) },
  { weight: 1, arbitrary: hugeString },
);

const EXTREME_NUMBERS = [
  1e308,
  -1e308,
  0,
  -1,
  0.5,
  1.5,
  2.5,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1,
  Number.MAX_SAFE_INTEGER + 2,
  -(Number.MAX_SAFE_INTEGER + 1),
  2 ** 31,
  2 ** 32,
  2 ** 63,
  1e21,
  Number.MIN_VALUE,
  1_000_000_001,
];

const RAW_NUMBERS = ["-0", "1e999", "-1e999", "1E400", "1e-400", "0.0000000000000000000001"];

/** hostileNumber is an extreme or odd number, some written as raw JSON (`-0`, `1e999`). */
export const hostileNumber: fc.Arbitrary<number | Raw | string> = fc.oneof(
  fc.constantFrom(...EXTREME_NUMBERS),
  fc.constantFrom(...RAW_NUMBERS).map((text) => new Raw(text)),
  fc.constantFrom("NaN", "Infinity", "-Infinity", "1", "0x10", "1e3", " 1", ""),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** ODD_TEXT are the strings a text field is swept with, one by one. */
export const ODD_TEXT: readonly string[] = [
  "",
  " ",
  "\u0000",
  "\u0000abc",
  "abc\u0000",
  "\u0001abc",
  "\u001b[31mred",
  "a\nb",
  "\u007f",
  "\u0085abc",
  "\uD800",
  "ab\uDFFF",
  "\u202Eabc",
  "\u200B",
  "\uFEFFabc",
  "\u00A0",
  "😀",
  "%E0%A4%A",
  "__proto__",
  "x".repeat(1_001),
  "x".repeat(MAX_BODY_CHARS),
];

/** ODD_NUMBERS are the values a number field is swept with, one by one. */
export const ODD_NUMBERS: readonly Json[] = [
  -1,
  0,
  new Raw("-0"),
  0.5,
  1.5,
  1e308,
  new Raw("1e999"),
  Number.MAX_SAFE_INTEGER + 1,
  -(Number.MAX_SAFE_INTEGER + 1),
  2 ** 31,
  "1",
  "NaN",
  "Infinity",
];

/** WRONG_TYPES replace any value in a sweep: null, a boolean, an array, an object, deep nesting. */
export const WRONG_TYPES: readonly Json[] = [
  null,
  true,
  [],
  new JsonObject([]),
  new Raw(`${"[".repeat(1_000)}${"]".repeat(1_000)}`),
];

/** hostileKey is an object key that is hostile by name: inherited members, odd text. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
  { weight: 1, arbitrary: hostileString.filter((key) => key.length < 100) },
);

/** deepNesting is an array or object nested 100 to 20,000 levels deep, as raw JSON text. */
export const deepNesting: fc.Arbitrary<Raw> = fc
  .record({ depth: fc.constantFrom(100, 1_000, 20_000), kind: fc.constantFrom("array", "object") })
  .map(({ depth, kind }) =>
    kind === "array"
      ? new Raw(`${"[".repeat(depth)}1${"]".repeat(depth)}`)
      : new Raw(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`),
  );

/** hostileLeaf is a value of any JSON type that is odd in itself. */
export const hostileLeaf: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false, [], new JsonObject([])) },
  { weight: 1, arbitrary: deepNesting },
);

/** hostileJson is any JSON value built from hostile leaves and hostile keys, a few levels deep. */
export const hostileJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileLeaf,
    fc.array(tie("value"), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.oneof(hostileKey, fc.string({ maxLength: 10 })), tie("value")), {
        maxLength: 4,
      })
      .map((entries) => new JsonObject(entries)),
  ),
})).value;
