import { randomBytes } from "node:crypto";

/** newNonce returns a fresh CSP nonce: 16 random bytes, base64. One per response. */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * contentSecurityPolicy is the policy every answer carries. Scripts run only with the
 * response's nonce (Next puts it on each of its script tags) or when loaded by such a script
 * ('strict-dynamic'); never inline handlers, injected inline scripts or other hosts. Styles
 * allow inline `style` attributes, which React and recharts render on the server. Nothing may
 * frame the dashboard, and forms and `<base>` stay on this origin. Development adds
 * 'unsafe-eval', which Next's dev runtime needs.
 */
export function contentSecurityPolicy(nonce: string, dev = false): string {
  const scripts = ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"];
  if (dev) scripts.push("'unsafe-eval'");
  return [
    "default-src 'self'",
    `script-src ${scripts.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * securityHeaders are the headers the server entry sets on every answer, page or API, in this
 * one place: the CSP above (with the response's nonce), no framing (X-Frame-Options for
 * browsers older than frame-ancestors), no MIME sniffing, no Referer sent anywhere, no powerful
 * browser features, and a browsing context and resources of our own. No HSTS: it belongs to the
 * TLS terminator, and is meaningless (and ignored) on plain http.
 */
export function securityHeaders(nonce: string, dev = false): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(nonce, dev),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
}

/**
 * API_SECURITY_HEADERS are the security headers of every answer a server writes itself with
 * `writeAnswer` (the data plane's, an edge's, the entry's own refusals), where the entry has set
 * none: no content may be sniffed, framed, or run. An answer the gateway passes on from the
 * upstream keeps the upstream's own.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
};
