import { RatekeeperError, refusalDetails, refusalSummary } from "./errors.js";

/** FetchLike is the platform's `fetch`, or anything with its signature (for tests, proxies, instrumented clients). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** AbortAfter returns a signal that aborts `ms` milliseconds from now (AbortSignal.timeout by default). */
export type AbortAfter = (ms: number) => AbortSignal;

/**
 * Transport is what a call to Ratekeeper needs: where, with which token, how, and for how long.
 * It is the one mutable thing of a client's calls: `warm` turns true when its first call settles.
 */
export interface Transport {
  /** baseUrl is Ratekeeper's URL, ending in "/". */
  baseUrl: string;
  token: string;
  fetch: FetchLike;
  /** timeoutMs is how long a call may take once the client is warm (ms). */
  timeoutMs: number;
  /**
   * firstCallTimeoutMs is how long the calls made before any call settled may take (ms, at
   * least timeoutMs): a process's first call loads the platform's HTTP client and opens the
   * connection, which costs about as much as a whole default timeout.
   */
  firstCallTimeoutMs: number;
  /** warm is false until a call settles (answered, failed or timed out), true from then on. */
  warm: boolean;
  abortAfter: AbortAfter;
}

/** Call is one call to Ratekeeper: a method, a path relative to the base URL, a JSON body. */
export interface Call {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** timeoutMs replaces the transport's timeout for this call (ms). */
  timeoutMs?: number;
}

/**
 * postJson sends `body` as JSON to `path` (relative to the base URL) with the service token and
 * resolves with the parsed JSON of a 200 answer; see `callJson` for what rejects.
 */
export function postJson(transport: Transport, path: string, body: unknown): Promise<unknown> {
  return callJson(transport, { method: "POST", path, body });
}

/**
 * callJson makes `call` with the service token and resolves with the parsed JSON of a 200
 * answer. It waits `call.timeoutMs`, else the transport's timeoutMs, or its firstCallTimeoutMs
 * while no call has settled (the first call pays for setting up the connection). Everything else
 * rejects with a RatekeeperError (see RatekeeperErrorKind): no complete
 * answer within the timeout (the whole exchange, body included, even when the fetch
 * implementation ignores the signal), a failed request, a non-200 status (401 and 403 about
 * the token, other 4xx, 5xx apart), a body that is not JSON.
 */
export async function callJson(transport: Transport, call: Call): Promise<unknown> {
  // A first call gets the longer budget: it may pay for setting up the HTTP client and the connection.
  const allowance =
    call.timeoutMs === undefined &&
    !transport.warm &&
    transport.firstCallTimeoutMs > transport.timeoutMs;
  const timeoutMs =
    call.timeoutMs ?? (allowance ? transport.firstCallTimeoutMs : transport.timeoutMs);
  const signal = transport.abortAfter(timeoutMs);
  const url = new URL(call.path, transport.baseUrl).href;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${transport.token}`,
    Accept: "application/json",
  };
  if (call.body !== undefined) headers["Content-Type"] = "application/json";
  let status: number | undefined;
  let text: string;
  try {
    text = await untilAborted(signal, async () => {
      const response = await transport.fetch(url, {
        method: call.method,
        headers,
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
        signal,
      });
      status = response.status;
      return response.text();
    });
  } catch (cause) {
    transport.warm = true;
    if (signal.aborted) {
      const which = allowance ? " the client's first call" : "";
      throw new RatekeeperError(
        "timeout",
        `Ratekeeper did not answer${which} within ${timeoutMs} ms`,
        { status, cause },
      );
    }
    throw new RatekeeperError("network", `Ratekeeper could not be reached at ${url}`, {
      status,
      cause,
    });
  }
  transport.warm = true;
  const parsed = parseJson(text);
  if (status !== 200) {
    throw statusError(
      status as number,
      `${call.method} ${url}`,
      parsed.ok ? parsed.value : undefined,
    );
  }
  if (!parsed.ok) {
    throw new RatekeeperError("invalid_response", "Ratekeeper's answer is not JSON", {
      status,
      cause: parsed.error,
    });
  }
  return parsed.value;
}

/**
 * statusError classifies a non-200 answer: 401 and 403 are the token refused (`unauthorized`),
 * 408, 429 and every status that is not a 4xx are an outage (`http`), any other 4xx says the
 * call itself is wrong (`rejected`: a URL that is not Ratekeeper's answers 404).
 */
function statusError(status: number, call: string, body: unknown): RatekeeperError {
  const details = refusalDetails(status, body);
  if (status === 401 || status === 403) {
    return new RatekeeperError(
      "unauthorized",
      `${refusalSummary(status, body)} on ${call}: ${details}`,
      { status, body },
    );
  }
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    const hint =
      status === 404 || status === 405
        ? "is the url Ratekeeper's, with the right path prefix?"
        : "Ratekeeper does not accept this call (is this client older or newer than the server?)";
    return new RatekeeperError("rejected", `Ratekeeper answered ${details} to ${call}: ${hint}`, {
      status,
      body,
    });
  }
  return new RatekeeperError("http", `Ratekeeper answered ${status} to ${call}`, { status, body });
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
