// A naive JSON reader for the tests: a recursive descent of RFC 8259's grammar that decodes each
// string's escapes itself, written for plainness, not speed, so that the body readers' one-pass
// scanner (lib/http/repeated-keys.ts) has something independent to be checked against.

const SHORT_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const LITERAL = /true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/**
 * referenceRepeatedKeys reads a JSON text and lists the dotted path ("decisions.3.operation") of
 * each key that one of its objects gives more than once (keys compared after decoding their
 * escapes), once per path, in the order the repeats come; null when the text is not JSON, or
 * nests deeper than the stack allows.
 */
export function referenceRepeatedKeys(text: string): string[] | null {
  let pos = 0;
  const found: string[] = [];
  const fail = (): never => {
    throw new SyntaxError(`not JSON at ${pos}`);
  };
  const space = () => {
    while (pos < text.length && " \t\n\r".includes(text[pos] as string)) pos++;
  };
  const take = (char: string) => {
    space();
    if (text[pos] !== char) fail();
    pos++;
  };
  const readString = (): string => {
    take('"');
    let out = "";
    for (;;) {
      const char = text[pos++];
      if (char === undefined) return fail();
      if (char === '"') return out;
      if (char === "\\") {
        const escaped = text[pos++] ?? fail();
        if (escaped === "u") {
          const hex = text.slice(pos, pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail();
          out += String.fromCharCode(Number.parseInt(hex, 16));
          pos += 4;
        } else {
          out += SHORT_ESCAPES[escaped] ?? fail();
        }
      } else if (char < " ") {
        fail();
      } else {
        out += char;
      }
    }
  };
  const value = (path: string[]): void => {
    space();
    const char = text[pos];
    if (char === "{") {
      pos++;
      space();
      if (text[pos] === "}") {
        pos++;
        return;
      }
      const keys: string[] = [];
      for (;;) {
        const key = readString();
        const keyPath = [...path, key].join(".");
        if (keys.includes(key) && !found.includes(keyPath)) found.push(keyPath);
        keys.push(key);
        take(":");
        value([...path, key]);
        space();
        const next = text[pos++];
        if (next === "}") return;
        if (next !== ",") fail();
      }
    }
    if (char === "[") {
      pos++;
      space();
      if (text[pos] === "]") {
        pos++;
        return;
      }
      for (let index = 0; ; index++) {
        value([...path, String(index)]);
        space();
        const next = text[pos++];
        if (next === "]") return;
        if (next !== ",") fail();
      }
    }
    if (char === '"') {
      readString();
      return;
    }
    LITERAL.lastIndex = pos;
    const literal = LITERAL.exec(text) ?? fail();
    pos += literal[0].length;
  };
  try {
    value([]);
    space();
    if (pos !== text.length) fail();
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof RangeError) return null;
    throw error;
  }
  return found;
}
