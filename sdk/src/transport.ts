import { RatekeeperError } from "./errors.js";

/** FetchLike is the platform's `fetch`, or anything with its signature (for tests, proxies, instrumented clients). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** AbortAfter returns a signal that aborts `ms` milliseconds from now (AbortSignal.timeout by default). */
export type AbortAfter = (ms: number) => AbortSignal;

/** Transport is what a call to Ratekeeper needs: where, with which token, how, and for how long. */
export interface Transport {
  /** baseUrl is Ratekeeper's URL, ending in "/". */
  baseUrl: string;
  token: string;
  fetch: FetchLike;
  timeoutMs: number;
  abortAfter: AbortAfter;
}

/**
 * postJson sends `body` as JSON to `path` (relative to the base URL) with the service token and
 * resolves with the parsed JSON of a 200 answer. Everything else rejects with a RatekeeperError:
 * no complete answer within `timeoutMs` (the whole exchange, body included, even when the fetch
 * implementation ignores the signal), a failed request, a non-200 status, a body that is not JSON.
 */
export async function postJson(
  transport: Transport,
  path: string,
  body: unknown,
): Promise<unknown> {
  const signal = transport.abortAfter(transport.timeoutMs);
  const url = new URL(path, transport.baseUrl).href;
  let status: number | undefined;
  let text: string;
  try {
    text = await untilAborted(signal, async () => {
      const response = await transport.fetch(url, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${transport.token}`,
          "Content-Type": "application/json",
          Accept: "application/json",
        },
        body: JSON.stringify(body),
        signal,
      });
      status = response.status;
      return response.text();
    });
  } catch (cause) {
    if (signal.aborted) {
      throw new RatekeeperError(
        "timeout",
        `Ratekeeper did not answer within ${transport.timeoutMs} ms`,
        { status, cause },
      );
    }
    throw new RatekeeperError("network", `Ratekeeper could not be reached at ${url}`, {
      status,
      cause,
    });
  }
  const parsed = parseJson(text);
  if (status !== 200) {
    throw statusError(status as number, url, parsed.ok ? parsed.value : undefined);
  }
  if (!parsed.ok) {
    throw new RatekeeperError("invalid_response", "Ratekeeper's answer is not JSON", {
      status,
      cause: parsed.error,
    });
  }
  return parsed.value;
}

function statusError(status: number, url: string, body: unknown): RatekeeperError {
  if (status === 401) {
    return new RatekeeperError(
      "unauthorized",
      "Ratekeeper refused the service token (401): it is missing, unknown or revoked",
      { status, body },
    );
  }
  if (status === 403) {
    return new RatekeeperError(
      "unauthorized",
      "Ratekeeper refused the service token (403): it lacks the decide scope",
      { status, body },
    );
  }
  return new RatekeeperError("http", `Ratekeeper answered ${status} to POST ${url}`, {
    status,
    body,
  });
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * untilAborted runs `work` and rejects as soon as `signal` aborts, whether or not `work` listens
 * to it: a fetch that ignores its signal cannot hold a decision past the timeout.
 */
function untilAborted<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work().then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
