import { describe, expect, it } from "vitest";
import { generateServiceToken, hashServiceToken } from "@/lib/auth/service-token";
import { generateApiKey, hashApiKey, presentedKeyHash } from "@/lib/policy/api-key";
import { DigestMemo } from "@/lib/policy/digest-memo";

describe("DigestMemo", () => {
  it("digests each secret once while it is remembered", () => {
    const digested: string[] = [];
    const memo = new DigestMemo(2, (s) => {
      digested.push(s);
      return `#${s}`;
    });
    expect(memo.digest("a")).toBe("#a");
    expect(memo.digest("a")).toBe("#a");
    expect(memo.digest("b")).toBe("#b");
    expect(digested).toEqual(["a", "b"]);
  });

  it("never holds more than its capacity, forgetting the oldest first", () => {
    const digested: string[] = [];
    const memo = new DigestMemo(2, (s) => {
      digested.push(s);
      return `#${s}`;
    });
    for (const s of ["a", "b", "c"]) memo.digest(s);
    expect(memo.size).toBe(2);
    memo.digest("b"); // still remembered
    memo.digest("a"); // forgotten when c came: digested again
    expect(digested).toEqual(["a", "b", "c", "a"]);
    for (let i = 0; i < 100; i++) memo.digest(`flood ${i}`);
    expect(memo.size).toBe(2);
  });

  it("refuses a capacity below one", () => {
    expect(() => new DigestMemo(0, (s) => s)).toThrow(RangeError);
  });

  it("gives the stored digest of keys and service tokens, remembered or not", () => {
    const key = generateApiKey();
    const token = generateServiceToken();
    for (let i = 0; i < 2; i++) {
      expect(presentedKeyHash(key.key)).toBe(key.hash);
      expect(presentedKeyHash(key.key)).toBe(hashApiKey(key.key));
      expect(presentedKeyHash(token.token)).toBe(token.hash);
      expect(presentedKeyHash(token.token)).toBe(hashServiceToken(token.token));
    }
  });
});
