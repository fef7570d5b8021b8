// JSON.parse keeps the last of a key given twice in one object and says nothing, so
// `{"operation":"read","operation":"write"}` reads as a write: a body that means two things. This
// scanner finds such keys in one pass over the text, for the body readers to refuse them.

/** SMALL_OBJECT is how many keys an object's keys are compared one by one before a Set is made. */
const SMALL_OBJECT = 16;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

// The scan's stacks, one entry per open object or array, reused from call to call (the scan is
// synchronous, so no two scans share them) and emptied after each.
/** isArray says whether each open container is an array (else an object). */
const isArray: boolean[] = [];
/** parts are each open container's place in its parent's path: its current key, or item index. */
const parts: (string | number)[] = [];
/** keyStarts is where each open object's keys start in `keys`. */
const keyStarts: number[] = [];
/** keySets hold an object's keys once it has more than SMALL_OBJECT of them (else null). */
const keySets: (Set<string> | null)[] = [];
/** keys are the keys of every open object, one object's after its parent's. */
const keys: string[] = [];

/**
 * stringEnd is the index of the quote that closes the string opened at `open` (the text's length
 * for a string left open, which valid JSON never has).
 */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  for (;;) {
    if (close === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
}

/** isKey says whether the string that ends at `close` is a key: a colon comes next. */
function isKey(text: string, close: number): boolean {
  let i = close + 1;
  let c = text.charCodeAt(i);
  while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = text.charCodeAt(++i);
  return c === COLON;
}

/** seen records `key` in the innermost open object and says whether it was there already. */
function seen(key: string): boolean {
  const depth = keyStarts.length - 1;
  const set = keySets[depth];
  if (set) return set.size === set.add(key).size;
  const start = keyStarts[depth] as number;
  for (let k = start; k < keys.length; k++) if (keys[k] === key) return true;
  keys.push(key);
  if (keys.length - start > SMALL_OBJECT) keySets[depth] = new Set(keys.slice(start));
  return false;
}

/** pathTo is the dotted path of `key` in the innermost open object ("decisions.3.operation"). */
function pathTo(key: string): string {
  let path = "";
  for (let d = 0; d < parts.length - 1; d++) path += `${parts[d]}.`;
  return path + key;
}

/**
 * repeatedKeyPaths lists the dotted path ("decisions.3.operation", as field errors name fields)
 * of each key that an object of a JSON text gives more than once, once per path in the order the
 * repeats come, or null when no key repeats (then it allocates only the keys it compares, and a
 * Set for an object of more than 16 keys). Keys compare as JSON.parse reads them: "a" and
 * "\u0061" are one key. `text` must be valid JSON (JSON.parse it first): this does not check it.
 */
export function repeatedKeyPaths(text: string): string[] | null {
  let repeated: Set<string> | null = null;
  try {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        const close = stringEnd(text, i);
        const top = isArray.length - 1;
        if (top >= 0 && !isArray[top] && isKey(text, close)) {
          const raw = text.slice(i + 1, close);
          const key: string = raw.includes("\\") ? JSON.parse(text.slice(i, close + 1)) : raw;
          if (seen(key)) (repeated ??= new Set()).add(pathTo(key));
          parts[top] = key;
        }
        i = close;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        const array = c === OPEN_ARRAY;
        isArray.push(array);
        parts.push(array ? 0 : "");
        if (!array) {
          keyStarts.push(keys.length);
          keySets.push(null);
        }
      } else if (c === CLOSE_OBJECT) {
        isArray.pop();
        parts.pop();
        keys.length = keyStarts.pop() as number;
        keySets.pop();
      } else if (c === CLOSE_ARRAY) {
        isArray.pop();
        parts.pop();
      } else if (c === COMMA && isArray[isArray.length - 1]) {
        const top = parts.length - 1;
        parts[top] = (parts[top] as number) + 1;
      }
    }
  } finally {
    isArray.length = 0;
    parts.length = 0;
    keyStarts.length = 0;
    keySets.length = 0;
    keys.length = 0;
  }
  return repeated && [...repeated];
}

/**
 * flatKeysOnce is a shortcut past `repeatedKeyPaths` for a flat object (no object or array in
 * it) that JSON.parse read from `text` as `value`: true when the text has no backslash (so no
 * escaped key) and each of the value's keys appears in it exactly once as a quoted string, which
 * no repeated key could; false says nothing either way (ask `repeatedKeyPaths`).
 */
export function flatKeysOnce(text: string, value: Record<string, unknown>): boolean {
  if (text.indexOf("\\") >= 0) return false;
  for (const name in value) {
    const quoted = `"${name}"`;
    const at = text.indexOf(quoted);
    if (at < 0 || text.indexOf(quoted, at + quoted.length) >= 0) return false;
  }
  return true;
}
