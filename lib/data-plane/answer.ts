import { PROBLEM_CONTENT_TYPE, problemBody } from "@/lib/http";
import type { FieldErrors, Refusal } from "@/lib/schemas/problem.schema";

/**
 * API_SECURITY_HEADERS are the security headers of every answer the data plane writes itself
 * (lib/route/security-headers.ts has the pages'): no content may be sniffed, framed, or run.
 * An answer the gateway passes on from the upstream keeps the upstream's own.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
};

/** PlaneAnswer is a data-plane response before it is written: status, fields, and the body's text. */
export interface PlaneAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** jsonAnswer is a JSON answer (already written) that no cache may keep: decisions change. */
export function jsonAnswer(status: number, json: string): PlaneAnswer {
  return {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
    body: json,
  };
}

/** problemAnswer is an RFC 9457 problem answer. */
export function problemAnswer(
  status: number,
  title: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): PlaneAnswer {
  return {
    status,
    headers: {
      "Content-Type": PROBLEM_CONTENT_TYPE,
      "Cache-Control": "no-store",
      ...headers,
    },
    body: problemBody(status, title, extra),
  };
}

/** refusalAnswer sends a refusal (the protected routes' own bodies and fields) as it is. */
export function refusalAnswer(refusal: Refusal): PlaneAnswer {
  return {
    status: refusal.status,
    headers: {
      "Content-Type": PROBLEM_CONTENT_TYPE,
      "Cache-Control": "no-store",
      ...refusal.headers,
    },
    body: JSON.stringify(refusal.body),
  };
}

/** invalidAnswer is a 400 with field errors by dotted path ("" for the whole body). */
export function invalidAnswer(errors: FieldErrors): PlaneAnswer {
  return problemAnswer(400, "Invalid request", { errors });
}

/** tooLargeAnswer is the 413 of a body over `maxBytes`. */
export function tooLargeAnswer(maxBytes: number): PlaneAnswer {
  return problemAnswer(413, "Body too large", { detail: `Send at most ${maxBytes} bytes.` });
}
