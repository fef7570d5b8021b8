import { loginPathFor } from "@/lib/next-path";

/** ApiError is a failed admin API call: status, title, and field errors by dotted path. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(title);
  }

  /** fieldError returns the first message for a field path, if any. */
  fieldError(path: string): string | undefined {
    return this.errors[path]?.[0];
  }
}

/**
 * api calls the admin JSON API. A 401 sends the browser to the login page (the session ended);
 * other failures throw an ApiError with the server's field errors.
 */
export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(`/api/admin${path}`, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? {} : { "Content-Type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    cache: "no-store",
  });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => ({}))) as {
    title?: string;
    errors?: Record<string, string[]>;
  };
  if (!response.ok) {
    if (response.status === 401 && path !== "/session") {
      // The whole address, query included (regression: the query was dropped).
      window.location.assign(loginPathFor(window.location.pathname + window.location.search));
    }
    throw new ApiError(response.status, body.title ?? response.statusText, body.errors ?? {});
  }
  return body as T;
}
