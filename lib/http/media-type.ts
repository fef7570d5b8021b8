/**
 * JsonType is what a Content-Type says of a body: JSON we read ("json": application/json with no
 * charset or charset=utf-8), JSON in another charset ("other-charset"), or not JSON.
 */
export type JsonType = "json" | "other-charset" | "not-json";

/** UTF8_DETAIL is the 415's detail for JSON declared in another charset: what to send instead. */
export const UTF8_DETAIL =
  "Send the body in UTF-8: Content-Type: application/json, with no charset or charset=utf-8.";

/** unquoted is a parameter's value without its quotes, if it has them. */
function unquoted(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

/**
 * jsonTypeOf reads a Content-Type header (RFC 9110 media type, parameters after `;`): the media
 * type must be application/json (any case, spaces around it allowed), and a `charset` parameter,
 * if any, utf-8 (any case, quoted or not). Bodies are read as UTF-8 (RFC 8259), so JSON declared
 * in another charset would be read as something it does not say.
 */
export function jsonTypeOf(contentType: string): JsonType {
  if (contentType === "application/json") return "json";
  const semicolon = contentType.indexOf(";");
  const type = semicolon === -1 ? contentType : contentType.slice(0, semicolon);
  if (type.trim().toLowerCase() !== "application/json") return "not-json";
  if (semicolon === -1) return "json";
  for (const parameter of contentType.slice(semicolon + 1).split(";")) {
    const equals = parameter.indexOf("=");
    if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== "charset") continue;
    if (unquoted(parameter.slice(equals + 1).trim()).toLowerCase() !== "utf-8") {
      return "other-charset";
    }
  }
  return "json";
}
