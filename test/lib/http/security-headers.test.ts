import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce, securityHeaders } from "@/lib/http/security-headers";

const directives = (csp: string) =>
  new Map(
    csp.split(";").map((d) => {
      const [name = "", ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );

describe("security headers", () => {
  it("new nonces are 128 random bits, base64, never repeated", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("lets scripts run by nonce only, never inline or by eval in production", () => {
    const csp = directives(contentSecurityPolicy("abc="));
    expect(csp.get("script-src")).toEqual(["'self'", "'nonce-abc='", "'strict-dynamic'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'self'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
    expect(csp.get("default-src")).toEqual(["'self'"]);
    expect(contentSecurityPolicy("abc=")).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  });

  it("adds 'unsafe-eval' in development only, which Next's dev runtime needs", () => {
    expect(directives(contentSecurityPolicy("n", true)).get("script-src")).toContain(
      "'unsafe-eval'",
    );
  });

  it("sets the CSP with the nonce and the other headers, and no HSTS", () => {
    const headers = securityHeaders("xyz");
    expect(headers["Content-Security-Policy"]).toContain("'nonce-xyz'");
    expect(headers).toMatchObject({
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    });
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toContain(
      "strict-transport-security",
    );
  });
});
