import { z } from "zod";
import { wholeNumberParam } from "./query.schema";
import { plainText } from "./text.schema";

// The pieces every paged list's query string shares: a page size, cursors, an id, a search.
// The admin API validates its query with them (400 with field errors), and the dashboard reads
// its own URL with the same schemas, so a shared link means the same view to both.

/** MAX_PAGE_SIZE is the most rows one page of a list may hold. */
export const MAX_PAGE_SIZE = 200;

/** DEFAULT_PAGE_SIZE is a page's rows when the query does not say. */
export const DEFAULT_PAGE_SIZE = 50;

/** MAX_SEARCH_CHARS bounds a search text. */
export const MAX_SEARCH_CHARS = 100;

/** CursorKey is what a cursor holds: the sort key of the row it points past, id last. */
export type CursorKey = readonly (string | number)[];

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder("utf-8", { fatal: true }).decode(
    Uint8Array.from(binary, (c) => c.charCodeAt(0)),
  );
}

/** encodeCursor writes a row's sort key as an opaque, URL-safe cursor. */
export function encodeCursor(key: CursorKey): string {
  return toBase64Url(JSON.stringify(key));
}

/** decodeCursor reads a cursor back, or returns undefined for anything encodeCursor never wrote. */
export function decodeCursor(cursor: string): CursorKey | undefined {
  try {
    const key: unknown = JSON.parse(fromBase64Url(cursor));
    if (!Array.isArray(key) || key.length === 0 || key.length > 4) return undefined;
    const valid = key.every(
      (v) =>
        (typeof v === "string" && v.length <= 200) || (typeof v === "number" && Number.isFinite(v)),
    );
    return valid ? (key as CursorKey) : undefined;
  } catch {
    return undefined;
  }
}

/** cursorParam is a cursor in a query string, decoded to its key ("Invalid cursor" otherwise). */
export const cursorParam = z
  .string()
  .max(400, "Invalid cursor")
  .transform((value, ctx) => {
    const key = decodeCursor(value);
    if (!key) {
      ctx.addIssue({ code: "custom", message: "Invalid cursor" });
      return z.NEVER;
    }
    return key;
  });

/**
 * searchParam is a search text: at most MAX_SEARCH_CHARS, free text (no control characters,
 * no unpaired surrogates), trimmed; blank is absent.
 */
export const searchParam = plainText(
  z
    .string({ error: "Give q once, as text" })
    .max(MAX_SEARCH_CHARS, `Search at most ${MAX_SEARCH_CHARS} characters`),
).transform((s) => s.trim() || undefined);

/** pageInfoSchema is how a list answers for its page: the cursors next to it, null at either end. */
export const pageInfoSchema = z
  .object({
    /** next continues after the page's last row; null on the last page. */
    next: z.string().nullable(),
    /** prev goes back before the page's first row; null on the first page. */
    prev: z.string().nullable(),
    /** total is how many rows match the filters, over all pages. */
    total: z.number().int().nonnegative(),
  })
  .strict();

/** PageInfo is a list answer's cursors and total (see pageInfoSchema). */
export type PageInfo = z.infer<typeof pageInfoSchema>;

/** pageParams are the paging parameters every list's query takes besides its filters. */
export const pageParams = {
  after: cursorParam.optional(),
  before: cursorParam.optional(),
  limit: wholeNumberParam("limit", 1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
};

/**
 * checkCursors refuses `after` and `before` together, and a cursor whose key does not have the
 * shape `fits` expects of this list (and sort): both "Invalid cursor" at the parameter.
 */
export function checkCursors(
  value: { after?: CursorKey; before?: CursorKey },
  ctx: z.RefinementCtx,
  fits: (key: CursorKey) => boolean,
): void {
  if (value.after && value.before)
    ctx.addIssue({
      code: "custom",
      message: "Give either after or before, not both",
      path: ["before"],
    });
  for (const field of ["after", "before"] as const) {
    const key = value[field];
    if (key && !fits(key))
      ctx.addIssue({ code: "custom", message: "Invalid cursor", path: [field] });
  }
}
