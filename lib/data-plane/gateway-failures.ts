import type { Logger } from "@/lib/log";
import type { Metrics, UpstreamErrorKind } from "@/lib/metrics";

/** CONNECT_CODES are the errors of a connection that never opened. */
const CONNECT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
]);

/** RESET_CODES are the errors of a connection the other end cut ("socket hang up" is ECONNRESET). */
const RESET_CODES: ReadonlySet<string> = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

/** upstreamErrorKind sorts an error of the upstream's connection into an UpstreamErrorKind. */
export function upstreamErrorKind(error: unknown): UpstreamErrorKind {
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  if (CONNECT_CODES.has(code)) return "connect";
  if (RESET_CODES.has(code)) return "reset";
  if (code === "ETIMEDOUT") return "timeout";
  if (code.startsWith("HPE_")) return "protocol";
  if (code.startsWith("ERR_TLS") || code.startsWith("ERR_SSL") || /CERT|SELF_SIGNED/.test(code)) {
    return "tls";
  }
  return "other";
}

/** upstreamName writes an upstream's URL for a log line: scheme, host, port and path, no credentials. */
export function upstreamName(upstream: URL): string {
  return `${upstream.protocol}//${upstream.host}${upstream.pathname.replace(/\/+$/, "")}`;
}

/** UpstreamFailure is one failed forwarding: what was asked, how it failed and what was answered. */
export interface UpstreamFailure {
  kind: UpstreamErrorKind;
  method: string;
  /** path is the upstream path, without its query (which may carry what a log must not). */
  path: string;
  customerId: number;
  /** status is what the client got: 502, 504, or 0 when its connection was cut mid-answer. */
  status: number;
  /** cause is the error's code or message, or why the gateway gave up. */
  cause: string;
}

/**
 * UpstreamFailures reports each failure of the gateway's upstream once: one log line and one
 * count in `ratekeeper_gateway_upstream_errors_total{kind}`.
 */
export class UpstreamFailures {
  private readonly upstream: string;

  constructor(
    private readonly log: Logger,
    private readonly metrics: Metrics,
    upstream: URL,
  ) {
    this.upstream = upstreamName(upstream);
  }

  /** report logs and counts one failure. */
  report(failure: UpstreamFailure): void {
    this.metrics.gatewayUpstreamError(failure.kind);
    const answered = failure.status === 0 ? "the answer was cut" : `answered ${failure.status}`;
    this.log.warn(
      `Gateway: upstream ${failure.kind} error (${failure.cause}) on ${failure.method} ` +
        `${this.upstream}${failure.path} for customer ${failure.customerId}; ${answered}.`,
    );
  }
}

/** causeOf is an error's code, or its message: what a log line says of it. */
export function causeOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return typeof code === "string" ? code : typeof message === "string" ? message : String(error);
}
