import fc from "fast-check";
import {
  deepNesting,
  hostileJson,
  hostileKey,
  hostileLeaf,
  hostileNumber,
  hostileString,
  type Json,
  JsonObject,
  Raw,
} from "./hostile-values";

/** BodyPayload is what a request carries: text (sent as UTF-8) or raw bytes (maybe not UTF-8). */
export type BodyPayload = { text: string } | { bytes: Uint8Array };

/** fromPlain turns a plain JSON-able value (a valid body) into the Json model. */
export function fromPlain(value: unknown): Json {
  if (Array.isArray(value)) return value.map(fromPlain);
  if (value !== null && typeof value === "object") {
    return new JsonObject(Object.entries(value).map(([key, v]) => [key, fromPlain(v)]));
  }
  return value as Json;
}

/** toJsonText writes a Json value as JSON text, keeping repeated and prototype-named keys. */
export function toJsonText(value: Json): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof JsonObject) {
    const entries = value.entries.map(([key, v]) => `${JSON.stringify(key)}:${toJsonText(v)}`);
    return `{${entries.join(",")}}`;
  }
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  return JSON.stringify(value) ?? "null";
}

type MutationOp = "odd" | "set" | "add-key" | "wrap" | "to-array" | "drop" | "duplicate";

/**
 * Mutation changes a valid body at one place reached by `path` (child indexes, modulo size):
 * "odd" puts an odd value of the same type there (a string passes the type check and meets
 * the field's own rules), "set" any value, the others change the shape around it.
 */
interface Mutation {
  op: MutationOp;
  path: number[];
  key: string;
  value: Json;
  oddString: string;
  oddNumber: number | Raw | string;
}

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  op: fc.oneof(
    { weight: 6, arbitrary: fc.constant<MutationOp>("odd") },
    { weight: 6, arbitrary: fc.constantFrom<MutationOp>("set", "set", "add-key", "add-key") },
    { weight: 3, arbitrary: fc.constantFrom<MutationOp>("wrap", "to-array", "drop", "duplicate") },
  ),
  path: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
  key: hostileKey,
  value: fc.oneof(hostileLeaf, hostileJson, deepNesting),
  oddString: hostileString,
  oddNumber: hostileNumber,
});

/** childrenOf lists the values of an object or array (none for a leaf). */
export function childrenOf(node: Json): Json[] {
  if (node instanceof JsonObject) return node.entries.map(([, v]) => v);
  return Array.isArray(node) ? node : [];
}

/** withChild copies an object or array with one child replaced (or dropped, given undefined). */
export function withChild(node: Json, index: number, child: Json | undefined): Json {
  if (node instanceof JsonObject) {
    const entries = [...node.entries];
    const entry = entries[index] as [string, Json];
    if (child === undefined) entries.splice(index, 1);
    else entries[index] = [entry[0], child];
    return new JsonObject(entries);
  }
  const items = [...(node as Json[])];
  if (child === undefined) items.splice(index, 1);
  else items[index] = child;
  return items;
}

/** apply returns the node after the mutation, or undefined to drop it from its parent. */
function apply(node: Json, m: Mutation): Json | undefined {
  switch (m.op) {
    case "odd":
      if (typeof node === "string") return m.oddString;
      return typeof node === "number" ? m.oddNumber : m.value;
    case "set":
      return m.value;
    case "add-key":
      return node instanceof JsonObject
        ? new JsonObject([...node.entries, [m.key, m.value]])
        : new JsonObject([[m.key, m.value]]);
    case "wrap":
      return [node];
    case "to-array":
      return childrenOf(node);
    case "drop":
      return undefined;
    case "duplicate":
      return node;
  }
}

function mutateAt(node: Json, m: Mutation, depth: number): Json | undefined {
  const children = childrenOf(node);
  const step = m.path[depth];
  if (step === undefined || children.length === 0) return apply(node, m);
  const index = step % children.length;
  const child = children[index] as Json;
  if (node instanceof JsonObject) {
    // A key is added to this object, or an entry repeated with another value (the last wins).
    if (m.op === "add-key" && step % 3 === 0) return apply(node, m);
    if (m.op === "duplicate" && (m.path[depth + 1] === undefined || !childrenOf(child).length)) {
      const [key] = node.entries[index] as [string, Json];
      return new JsonObject([...node.entries, [key, m.value]]);
    }
  }
  return withChild(node, index, mutateAt(child, m, depth + 1));
}

/**
 * mutate applies one mutation: it walks `path` down the body (child indexes, modulo the number
 * of children; adding a key may stop at any object on the way, so keys land at every depth)
 * and changes the node it stops at. Dropping the whole body leaves an empty object.
 */
export function mutate(node: Json, m: Mutation): Json {
  return mutateAt(node, m, 0) ?? new JsonObject([]);
}

const BROKEN_JSON = [
  "{",
  "}",
  "[",
  "{'name': 'x'}",
  '{"name": "x",}',
  '{"name": "x"} trailing',
  "NaN",
  "undefined",
  "nul",
  "tru",
  "\u0000",
  " ",
  "\uFEFF{}",
  '{"a": 1 /* comment */}',
  '{"a": 01}',
  '{"a": .5}',
  '{"a": "\\x41"}',
  '{"a": "\\ud800"}',
];

const brokenJson = (valid: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...BROKEN_JSON),
    fc.nat().map((cut) => valid.slice(0, valid.length > 1 ? cut % (valid.length - 1) : 0)),
    fc.constant(`\uFEFF${valid}`),
  );

/** notUtf8 writes the text as UTF-8 with some bytes replaced by ones UTF-8 never uses. */
const notUtf8 = (valid: string): fc.Arbitrary<Uint8Array> =>
  fc.array(fc.nat(), { minLength: 1, maxLength: 3 }).map((spots) => {
    const bytes = new TextEncoder().encode(valid);
    for (const spot of spots) bytes[spot % Math.max(1, bytes.length)] = 0xff;
    return bytes.length > 0 ? bytes : new Uint8Array([0xc0, 0xaf]);
  });

/**
 * bodyOf is a route's body: valid (from `valid`), a valid body with one or two hostile
 * mutations at any depth (so validation deep in the schema is reached), any hostile JSON,
 * broken JSON, bytes that are not UTF-8, or nothing at all.
 */
export function bodyOf(valid: fc.Arbitrary<unknown>): fc.Arbitrary<BodyPayload> {
  const validJson = valid.map(fromPlain);
  return fc.oneof(
    { weight: 1, arbitrary: validJson.map((v) => ({ text: toJsonText(v) })) },
    {
      weight: 8,
      arbitrary: fc
        .tuple(
          validJson,
          fc.oneof(
            { weight: 3, arbitrary: mutationArb.map((m) => [m]) },
            fc.array(mutationArb, { minLength: 2, maxLength: 3 }),
          ),
        )
        .map(([v, ms]) => ({ text: toJsonText(ms.reduce((acc, m) => mutate(acc, m), v)) })),
    },
    { weight: 2, arbitrary: hostileJson.map((v) => ({ text: toJsonText(v) })) },
    {
      weight: 1,
      arbitrary: validJson.chain((v) => brokenJson(toJsonText(v))).map((text) => ({ text })),
    },
    {
      weight: 1,
      arbitrary: validJson.chain((v) => notUtf8(toJsonText(v))).map((bytes) => ({ bytes })),
    },
    { weight: 1, arbitrary: fc.constant({ text: "" }) },
  );
}
