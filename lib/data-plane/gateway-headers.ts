import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import {
  CLIENT_ADDRESS_HEADER,
  resolveClientAddress,
  type TrustProxy,
  trustedForwardedValue,
} from "@/lib/http/client-address";
import type { CustomerPolicy } from "@/lib/policy/snapshot";

/** HOP_BY_HOP are the fields that describe one connection, never forwarded (RFC 9110, 7.6.1). */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * CLIENT_ADDRESS_CLAIMS are the fields that name a client's address in one value, as proxies and
 * CDNs write them. The gateway forwards none it receives, trusted proxy or not: it cannot tell
 * a value a trusted proxy wrote from a client's that a proxy passed on untouched (a load
 * balancer that only appends to X-Forwarded-For does). It writes X-Real-IP itself.
 */
export const CLIENT_ADDRESS_CLAIMS: readonly string[] = [
  "x-real-ip",
  "true-client-ip",
  "cf-connecting-ip",
  "x-client-ip",
  "x-cluster-client-ip",
  "fastly-client-ip",
];

/**
 * NOT_FORWARDED are request fields the upstream never sees: the customer's key and cookies (the
 * gateway authenticated the customer, the upstream learns who it is from Ratekeeper-*), the
 * client's Host and Expect (this hop's own), and every forwarding claim (the gateway writes its own).
 */
const NOT_FORWARDED: ReadonlySet<string> = new Set([
  "authorization",
  "cookie",
  "host",
  "expect",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  ...CLIENT_ADDRESS_CLAIMS,
  CLIENT_ADDRESS_HEADER,
]);

/** connectionListed is the set of fields a message's Connection field names (also hop-by-hop). */
function connectionListed(value: string | string[] | undefined): Set<string> {
  const listed = new Set<string>();
  if (value === undefined) return listed;
  for (const part of (Array.isArray(value) ? value.join(",") : value).split(",")) {
    const name = part.trim().toLowerCase();
    if (name) listed.add(name);
  }
  return listed;
}

/**
 * Hop is the connection a request came to the gateway on: who connected (`peer`, the socket's
 * address), whether over TLS, and how many proxies in front of the app are trusted (TRUST_PROXY).
 */
export interface Hop {
  peer: string;
  encrypted: boolean;
  trustProxy: TrustProxy;
}

function listOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(",") : value)
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/**
 * forwardedFields are the forwarding fields for the upstream, written as proxies write them.
 * X-Forwarded-For: the incoming chain with the peer appended when the peer is a trusted proxy,
 * else the peer alone (a client's own claim is dropped). X-Real-IP: the client's address as the
 * app resolves it (resolveClientAddress: the peer, or the address the outermost trusted proxy
 * saw), as nginx's `proxy_set_header X-Real-IP $remote_addr` writes it. X-Forwarded-Proto: the
 * trusted proxy's (http or https), else this connection's. X-Forwarded-Host: the trusted
 * proxy's, else the request's Host.
 */
export function forwardedFields(incoming: IncomingHttpHeaders, hop: Hop): OutgoingHttpHeaders {
  const trusted = hop.trustProxy > 0;
  const chain = trusted ? listOf(incoming["x-forwarded-for"]) : [];
  const out: OutgoingHttpHeaders = {
    "x-forwarded-for": [...chain, hop.peer].join(", "),
    "x-real-ip": resolveClientAddress(hop.peer, incoming["x-forwarded-for"], hop.trustProxy),
  };
  const proxyProto = trustedForwardedValue(incoming["x-forwarded-proto"], hop.trustProxy);
  const proto = proxyProto?.toLowerCase();
  out["x-forwarded-proto"] =
    proto === "http" || proto === "https" ? proto : hop.encrypted ? "https" : "http";
  const host = trustedForwardedValue(incoming["x-forwarded-host"], hop.trustProxy) ?? incoming.host;
  if (host) out["x-forwarded-host"] = host;
  return out;
}

/**
 * upstreamRequestHeaders are the fields forwarded to the upstream: the client's, less the
 * hop-by-hop ones, Authorization, Cookie, every client-address claim (CLIENT_ADDRESS_CLAIMS,
 * Forwarded, X-Forwarded-*) and any Ratekeeper-* a client sent, plus who the customer is
 * (Ratekeeper-Customer-Id, Ratekeeper-Plan), X-Forwarded-For/-Host/-Proto and X-Real-IP (see
 * forwardedFields).
 */
export function upstreamRequestHeaders(
  incoming: IncomingHttpHeaders,
  customer: CustomerPolicy,
  hop: Hop,
): OutgoingHttpHeaders {
  const listed = connectionListed(incoming.connection);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    if (HOP_BY_HOP.has(name) || NOT_FORWARDED.has(name) || listed.has(name)) continue;
    if (name.startsWith("ratekeeper-")) continue;
    out[name] = value;
  }
  out["ratekeeper-customer-id"] = String(customer.id);
  out["ratekeeper-plan"] = customer.planSlug;
  return Object.assign(out, forwardedFields(incoming, hop));
}

/**
 * clientResponseHeaders are the upstream's answer's fields less the hop-by-hop ones, with the
 * customer's RateLimit fields set over any the upstream sent.
 */
export function clientResponseHeaders(
  upstream: IncomingHttpHeaders,
  rateLimit: Record<string, string>,
): OutgoingHttpHeaders {
  const listed = connectionListed(upstream.connection);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value === undefined || HOP_BY_HOP.has(name) || listed.has(name)) continue;
    out[name] = value;
  }
  for (const [name, value] of Object.entries(rateLimit)) out[name.toLowerCase()] = value;
  return out;
}
