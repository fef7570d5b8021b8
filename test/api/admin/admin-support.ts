import { POST as login } from "@/app/api/admin/session/route";

/** signIn logs in with the test runtime's admin password and returns the session cookie. */
export async function signIn(): Promise<string> {
  const res = await login(
    new Request("http://test/api/admin/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ password: "test-password" }),
    }),
  );
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  const cookie = res.headers.get("set-cookie") ?? "";
  return cookie.split(";")[0] as string;
}

/** adminRequest builds an admin API request carrying the session cookie (if any). */
export function adminRequest(
  pathname: string,
  options: { method?: string; cookie?: string; body?: unknown; rawBody?: string } = {},
): Request {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  const body =
    options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers["content-type"] = "application/json";
  return new Request(`http://test${pathname}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
}

/** params builds a route context. */
export function params<P extends Record<string, string>>(value: P): { params: Promise<P> } {
  return { params: Promise.resolve(value) };
}
