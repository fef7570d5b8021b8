import type { z } from "zod";

/** TextKind is what a free-text field holds: one line (names) or several (descriptions). */
export type TextKind = "line" | "block";

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * isControl tells whether a UTF-16 code unit is a control character of its kind of text: C0
 * (NUL to US), DEL and C1 always; in one line also the Unicode line and paragraph separators;
 * in a block, tab, line feed and carriage return are text.
 */
function isControl(code: number, kind: TextKind): boolean {
  if (code < 0x20) {
    return kind === "line" || !(code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN);
  }
  if (code >= 0x7f && code <= 0x9f) return true;
  return kind === "line" && (code === 0x2028 || code === 0x2029);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * textIssue says why a string cannot be stored as free text, or returns null: control
 * characters (NUL included; in a block, tab and line breaks are allowed) and unpaired UTF-16
 * surrogates, which no encoding can store and which would come back as replacement characters.
 */
export function textIssue(value: string, kind: TextKind = "line"): string | null {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (isControl(code, kind)) {
      return kind === "line"
        ? "Must not contain control characters or line breaks"
        : "Must not contain control characters";
    }
    if (isHighSurrogate(code) && isLowSurrogate(value.charCodeAt(i + 1))) {
      i++; // a well-formed pair: one character outside the Basic Multilingual Plane
    } else if (isHighSurrogate(code) || isLowSurrogate(code)) {
      return "Must be valid Unicode text (unpaired surrogate)";
    }
  }
  return null;
}

/**
 * plainText adds the free-text check (textIssue) to a string schema: the one refinement every
 * name, description and other free text of the API goes through, so the schema, not the
 * database, refuses what cannot be stored.
 */
export function plainText<T extends z.ZodString>(schema: T, kind: TextKind = "line"): T {
  return schema.superRefine((value, ctx) => {
    const message = textIssue(value, kind);
    if (message) ctx.addIssue({ code: "custom", message });
  });
}
