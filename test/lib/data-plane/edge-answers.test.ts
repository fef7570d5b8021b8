import { describe, expect, it } from "vitest";
import { notOnEdge } from "@/lib/data-plane/edge-answers";

describe("notOnEdge", () => {
  it("answers the admin API and the demo routes with a 404 problem naming the control plane", () => {
    for (const path of ["/api/admin/plans", "/api/v1/items", "/api"]) {
      const answer = notOnEdge(path, "https://rk.internal");
      expect(answer.status).toBe(404);
      expect(answer.headers["Content-Type"]).toBe("application/problem+json");
      const body = JSON.parse(answer.body);
      expect(body).toMatchObject({
        title: "Not served by an edge",
        status: 404,
        controlPlane: "https://rk.internal",
      });
      expect(body.detail).toContain("/api/v1/decisions");
      expect(body.detail).toContain("the control plane, at https://rk.internal");
    }
  });

  it("answers a page with a short HTML page linking to the dashboard", () => {
    const answer = notOnEdge("/customers", "https://rk.internal/admin");
    expect(answer.status).toBe(404);
    expect(answer.headers["Content-Type"]).toBe("text/html; charset=utf-8");
    expect(answer.body).toContain('<a href="https://rk.internal/admin/">');
    expect(answer.body).not.toContain("<script");
  });

  it("says what the control plane is when its address is not set, and escapes what it prints", () => {
    expect(JSON.parse(notOnEdge("/api/admin/audit", undefined).body).detail).toContain(
      "the control plane (the full app, with the database)",
    );
    expect(notOnEdge("/", undefined).body).toContain("ask its operators for its address");
    expect(notOnEdge("/", 'https://x/"><script>').body).toContain("&quot;&gt;&lt;script&gt;");
  });
});
