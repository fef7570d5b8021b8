import { type HttpAnswer, problemAnswer } from "@/lib/http/answer";

/** EDGE_PATHS are what an edge serves, as its refusals name them. */
const EDGE_PATHS =
  "the decision API (POST /api/v1/decisions and /api/v1/decisions/batch), the gateway (/gw/), " +
  "/api/health and /api/metrics";

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * notOnEdge answers a request an edge does not serve: the dashboard's pages, the admin API,
 * the demo routes. Under /api/ it is a 404 problem naming what an edge serves and where the
 * control plane is (`controlPlaneUrl`, from CONTROL_PLANE_URL, when set); elsewhere (a page) a
 * short HTML page saying the same, with a link to the dashboard.
 */
export function notOnEdge(path: string, controlPlaneUrl: string | undefined): HttpAnswer {
  const where = controlPlaneUrl
    ? `the control plane, at ${controlPlaneUrl}`
    : "the control plane (the full app, with the database)";
  if (path === "/api" || path.startsWith("/api/")) {
    return problemAnswer(404, "Not served by an edge", {
      detail: `This Ratekeeper instance is an edge: it serves ${EDGE_PATHS}. The admin API and the demo routes are on ${where}.`,
      ...(controlPlaneUrl ? { controlPlane: controlPlaneUrl } : {}),
    });
  }
  const link = controlPlaneUrl
    ? `<a href="${escapeHtml(`${controlPlaneUrl}/`)}">${escapeHtml(controlPlaneUrl)}</a>`
    : "the control plane (the full app, with the database): ask its operators for its address";
  const body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ratekeeper edge</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<h1>This is a Ratekeeper edge</h1>
<p>An edge decides requests close to your services; it has no dashboard. The dashboard is on ${link}.</p>
<p>Here: ${escapeHtml(EDGE_PATHS)}.</p>
</body>
</html>
`;
  return {
    status: 404,
    // writeAnswer adds the API security headers; the page needs its inline style allowed.
    headers: {
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
    },
    body,
  };
}
