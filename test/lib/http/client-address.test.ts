import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import {
  CLIENT_ADDRESS_HEADER,
  clientAddressOf,
  resolveClientAddress,
} from "@/lib/http/client-address";

describe("resolveClientAddress", () => {
  // Regression: sign-in limiting keyed on the first X-Forwarded-For entry, which any client
  // writes: a new value per attempt bypassed it, and claiming another's address locked them out.
  it("believes no X-Forwarded-For without TRUST_PROXY", () => {
    expect(resolveClientAddress("10.0.0.7", "1.2.3.4", 0)).toBe("10.0.0.7");
    expect(resolveClientAddress("10.0.0.7", ["1.2.3.4", "5.6.7.8"], 0)).toBe("10.0.0.7");
  });

  it("takes the address the outermost trusted proxy saw, never one further left", () => {
    // client claims 6.6.6.6; proxy 1 saw 1.2.3.4 and appended it; proxy 2 saw proxy 1.
    expect(resolveClientAddress("10.0.0.2", "6.6.6.6, 1.2.3.4", 1)).toBe("1.2.3.4");
    expect(resolveClientAddress("10.0.0.2", "6.6.6.6, 1.2.3.4, 10.0.0.1", 2)).toBe("1.2.3.4");
    expect(resolveClientAddress("10.0.0.2", "1.2.3.4", 3)).toBe("1.2.3.4");
    expect(resolveClientAddress("10.0.0.2", " , ", 1)).toBe("10.0.0.2");
    expect(resolveClientAddress("10.0.0.2", undefined, 1)).toBe("10.0.0.2");
  });

  it("gives one address to IPv4 clients seen over IPv6 sockets, and names an unknown one", () => {
    expect(resolveClientAddress("::ffff:127.0.0.1", undefined, 0)).toBe("127.0.0.1");
    expect(resolveClientAddress("::1", undefined, 0)).toBe("::1");
    expect(resolveClientAddress(undefined, undefined, 0)).toBe("unknown");
  });

  it("reads the address the server entry stamped, or unknown", () => {
    const stamped = new Request("http://x/", { headers: { [CLIENT_ADDRESS_HEADER]: "1.2.3.4" } });
    expect(clientAddressOf(stamped)).toBe("1.2.3.4");
    expect(clientAddressOf(new Request("http://x/"))).toBe("unknown");
  });
});

describe("TRUST_PROXY", () => {
  it("is off by default and takes off, false or a number of proxies", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: "off" }).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
  });

  it("refuses anything else with a named error", () => {
    for (const value of ["yes", "-1", "1.5", "100", "true"]) {
      expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    }
  });
});
