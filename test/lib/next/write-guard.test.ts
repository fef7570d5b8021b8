import { describe, expect, it } from "vitest";
import { contentTypeRefusal, crossOriginRefusal, writeRefusal } from "@/lib/next/write-guard";

function request(method: string, headers: Record<string, string>, url = "http://rk.test:3000/x") {
  return new Request(url, { method, headers });
}

const status = (response: Response | null) => response?.status ?? "passes";

describe("crossOriginRefusal", () => {
  it("lets reads through whatever they claim", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      const r = request(method, { "sec-fetch-site": "cross-site", origin: "http://evil.example" });
      expect(status(crossOriginRefusal(r, 0)), method).toBe("passes");
    }
  });

  it.each([
    ["same-origin", "passes"],
    ["none", "passes"],
    ["same-site", 403],
    ["cross-site", 403],
    ["", 403],
    ["SAME-ORIGIN", 403],
  ])("judges Sec-Fetch-Site %j before Origin: %s", (site, expected) => {
    const r = request("POST", { "sec-fetch-site": site, origin: "http://rk.test:3000" });
    expect(status(crossOriginRefusal(r, 0))).toBe(expected);
  });

  it.each([
    ["http://rk.test:3000", "passes"],
    ["https://RK.test:3000", "passes"],
    ["http://rk.test", 403],
    ["http://rk.test:3001", 403],
    ["http://sub.rk.test:3000", 403],
    ["http://evil.example", 403],
    ["null", 403],
    ["file://", 403],
    ["garbage", 403],
  ])("without Sec-Fetch-Site, compares Origin %j with the Host", (origin, expected) => {
    const r = request("DELETE", { origin, host: "rk.test:3000" });
    expect(status(crossOriginRefusal(r, 0))).toBe(expected);
  });

  it("uses the URL's host for a request made in-process (no Host header)", () => {
    expect(status(crossOriginRefusal(request("PUT", { origin: "http://rk.test:3000" }), 0))).toBe(
      "passes",
    );
  });

  it("judges a request with neither header by its credentials alone (curl, scripts)", () => {
    expect(status(crossOriginRefusal(request("PATCH", {}), 0))).toBe("passes");
  });

  it("believes X-Forwarded-Host only from trusted proxies", () => {
    const behindProxy = (trustProxy: number, forwardedHost: string) =>
      status(
        crossOriginRefusal(
          request("POST", {
            host: "app.internal:3000",
            origin: "https://rk.example.com",
            "x-forwarded-host": forwardedHost,
          }),
          trustProxy,
        ),
      );
    expect(behindProxy(0, "rk.example.com")).toBe(403);
    expect(behindProxy(1, "rk.example.com")).toBe("passes");
    // Anyone can write the left of the list; one trusted proxy vouches for the last entry only.
    expect(behindProxy(1, "rk.example.com, evil.example")).toBe(403);
    expect(behindProxy(2, "rk.example.com, inner.proxy")).toBe("passes");
  });
});

describe("contentTypeRefusal", () => {
  it.each([
    [{ "content-type": "application/json" }, "passes"],
    [{ "content-type": "application/json; charset=utf-8" }, "passes"],
    [{ "content-type": "Application/JSON" }, "passes"],
    [{}, "passes"],
    [{ "content-length": "0" }, "passes"],
    [{ "content-type": "text/plain" }, 415],
    [{ "content-type": "text/plain;charset=UTF-8" }, 415],
    [{ "content-type": "application/x-www-form-urlencoded" }, 415],
    [{ "content-type": "multipart/form-data; boundary=x" }, 415],
    [{ "content-type": "application/jsonp" }, 415],
    [{ "content-type": "" }, 415],
    [{ "content-length": "12" }, 415],
    [{ "transfer-encoding": "chunked" }, 415],
  ])("answers %j with %s", (headers, expected) => {
    expect(status(contentTypeRefusal(request("POST", headers)))).toBe(expected);
  });

  it("lets reads through", () => {
    expect(status(contentTypeRefusal(request("GET", { "content-type": "text/plain" })))).toBe(
      "passes",
    );
  });

  // Regression: `charset=latin1` passed, and the body was read as UTF-8 all the same.
  it.each([
    ["application/json; charset=latin1", 415],
    ["application/json;charset=ISO-8859-1", 415],
    ['application/json; charset="utf-16"', 415],
    ["application/json; charset=", 415],
    ["application/json; charset=UTF-8", "passes"],
    ['application/json; charset="utf-8"', "passes"],
    ["application/json; boundary=x", "passes"],
  ])("answers JSON declared as %s with %s", async (type, expected) => {
    const refusal = contentTypeRefusal(request("POST", { "content-type": type }));
    expect(status(refusal)).toBe(expected);
    if (refusal) {
      expect((await refusal.json()).detail).toBe(
        "Send the body in UTF-8: Content-Type: application/json, with no charset or charset=utf-8.",
      );
    }
  });
});

describe("writeRefusal", () => {
  it("answers 403 before 415, with problem bodies", async () => {
    const both = writeRefusal(
      request("POST", { "sec-fetch-site": "cross-site", "content-type": "text/plain" }),
      0,
    );
    expect(both?.status).toBe(403);
    expect(both?.headers.get("content-type")).toBe("application/problem+json");
    expect(await both?.json()).toMatchObject({ title: "Cross-origin request refused" });
    const typed = writeRefusal(request("POST", { "content-type": "text/plain" }), 0);
    expect(await typed?.json()).toMatchObject({ status: 415, title: "Unsupported media type" });
  });
});
