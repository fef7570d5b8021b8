import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { repeatedKeyPaths } from "@/lib/http/repeated-keys";
import { referenceRepeatedKeys } from "../../support/json-reference";

describe("repeatedKeyPaths", () => {
  it("finds nothing in a body whose keys are each given once", () => {
    expect(repeatedKeyPaths('{"key":"rk_a","operation":"read"}')).toBeNull();
    expect(repeatedKeyPaths('[{"a":1},{"a":2}]')).toBeNull();
    expect(repeatedKeyPaths('{"a":{"a":{"a":1}},"b":[{"a":1,"b":2}]}')).toBeNull();
    expect(repeatedKeyPaths('"a"')).toBeNull();
    expect(repeatedKeyPaths("{}")).toBeNull();
  });

  // Regression: {"operation":"read","operation":"write"} was read as a write (the last key wins).
  it("names a key given twice by its path, at any depth", () => {
    expect(repeatedKeyPaths('{"customerId":65,"operation":"read","operation":"write"}')).toEqual([
      "operation",
    ]);
    const batch = `{"decisions":[${'{"key":"k","operation":"read"},'.repeat(3)}{"key":"k","operation":"read","operation":"write"}]}`;
    expect(repeatedKeyPaths(batch)).toEqual(["decisions.3.operation"]);
    expect(repeatedKeyPaths('{"limits":[{"count":1,"count":1}],"name":"a","name":"b"}')).toEqual([
      "limits.0.count",
      "name",
    ]);
  });

  it("compares keys as JSON.parse reads them: escapes decoded", () => {
    expect(repeatedKeyPaths('{"a":1,"\\u0061":2}')).toEqual(["a"]);
    expect(repeatedKeyPaths('{"\\"":1,"\\u0022":2}')).toEqual(['"']);
    expect(repeatedKeyPaths('{"a\\\\":1,"a\\u005c":2}')).toEqual(["a\\"]);
    expect(repeatedKeyPaths('{"\\/":1,"/":2}')).toEqual(["/"]);
  });

  it("is not fooled by quotes, colons and brackets inside strings", () => {
    expect(repeatedKeyPaths('{"a":"\\"a\\":1,{[","b":"a"}')).toBeNull();
    expect(repeatedKeyPaths('{"a\\\\":"x","a":"y"}')).toBeNull();
    expect(repeatedKeyPaths('{"x":["a","a"],"y":{"a" : "a" , "b":"a"}}')).toBeNull();
    expect(repeatedKeyPaths('{ "a" :\n1 ,\t"a"\r\n: 2 }')).toEqual(["a"]);
  });

  it("names a path once however often its key repeats, and keeps the order repeats come in", () => {
    expect(repeatedKeyPaths('{"b":1,"a":1,"a":2,"a":3,"b":4}')).toEqual(["a", "b"]);
  });

  it("finds repeats in an object of many keys (past the one-by-one comparison) too", () => {
    const keys = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`);
    expect(repeatedKeyPaths(`{${keys.join(",")}}`)).toBeNull();
    expect(repeatedKeyPaths(`{${keys.join(",")},"k3":0,"k39":0}`)).toEqual(["k3", "k39"]);
    // An object's keys end with it: a sibling may use them again.
    expect(repeatedKeyPaths(`[{${keys.join(",")}},{${keys.join(",")}}]`)).toBeNull();
  });

  it("starts each scan afresh, after a text that left objects open", () => {
    expect(repeatedKeyPaths('{"a":{"b":[')).toBeNull();
    expect(repeatedKeyPaths('{"a":1,"b":"')).toBeNull();
    expect(repeatedKeyPaths('{"a":1}')).toBeNull();
  });
});

// Random JSON texts, spelled in many ways (escapes of every kind, spaces anywhere), with keys
// from a small alphabet so that repeats are common, checked against a naive reader.

/** CHARS are the characters of keys and strings: plain, escaped by necessity, beyond ASCII. */
const CHARS = ["a", "b", ".", '"', "\\", "/", "\n", "\t", "\u0000", "é", "\u2028", "😀", "\uD800"];

/** spelled writes a character inside a JSON string: as itself, \uXXXX, or a short escape. */
function spelled(char: string, style: number): string {
  // A character beyond the BMP is two UTF-16 units, each escaped on its own (\ud83d\ude00).
  const units = char.length === 2 ? char.split("") : [char];
  return units
    .map((unit) => {
      const code = unit.charCodeAt(0);
      const hex = code.toString(16).padStart(4, "0");
      const short = JSON.stringify(unit).slice(1, -1);
      const mustEscape = unit === '"' || unit === "\\" || code < 0x20;
      if (style === 1) return `\\u${hex}`;
      if (style === 2) return `\\u${hex.toUpperCase()}`;
      if (style === 3 && unit === "/") return "\\/";
      return mustEscape || style === 3 ? short : unit;
    })
    .join("");
}

const jsonString = fc
  .array(fc.tuple(fc.constantFrom(...CHARS), fc.nat(3)), { maxLength: 3 })
  .map((chars) => `"${chars.map(([char, style]) => spelled(char, style)).join("")}"`);
const space = fc.constantFrom("", "", "", " ", "\n", "\t ", "\r\n");
const leaf = fc.oneof(jsonString, fc.constantFrom("true", "false", "null", "0", "-1.5e3", "12"));

const { value } = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("object"), tie("array")),
  object: fc
    .array(fc.tuple(space, jsonString, space, space, tie("value"), space), { maxLength: 5 })
    .map(
      (entries) =>
        `{${entries.map(([s1, key, s2, s3, v, s4]) => `${s1}${key}${s2}:${s3}${v}${s4}`).join(",")}}`,
    ),
  array: fc
    .array(fc.tuple(space, tie("value"), space), { maxLength: 4 })
    .map((items) => `[${items.map(([s1, v, s2]) => `${s1}${v}${s2}`).join(",")}]`),
}));
const jsonText = fc.tuple(space, value, space).map(([s1, v, s2]) => `${s1}${v}${s2}`);

describe("repeatedKeyPaths, against a naive JSON reader", () => {
  it("agrees with the reader on random JSON texts with escapes and nesting", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        expect(() => JSON.parse(text)).not.toThrow();
        expect(repeatedKeyPaths(text) ?? []).toEqual(referenceRepeatedKeys(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it("is checked on texts where keys repeat, not only on ones where none does", () => {
    const texts = fc.sample(jsonText, { seed: 7, numRuns: 500 });
    const repeating = texts.filter((text) => (referenceRepeatedKeys(text) ?? []).length > 0);
    expect(repeating.length).toBeGreaterThan(50);
  });

  it("has a reader that refuses what is not JSON and decodes escapes itself", () => {
    expect(referenceRepeatedKeys('{"a":1,}')).toBeNull();
    expect(referenceRepeatedKeys('{"a":01}')).toBeNull();
    expect(referenceRepeatedKeys('{"a":"\\x41"}')).toBeNull();
    expect(referenceRepeatedKeys('{"\\u0061":1,"a":[{"b":1,"b\\u0000":2,"b":3}]}')).toEqual([
      "a",
      "a.0.b",
    ]);
  });
});
