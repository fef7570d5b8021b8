/**
 * CLIENT_ADDRESS_HEADER carries the client's address from the server entry (which reads the
 * socket) to the route handlers, which cannot see the socket. The entry deletes any copy a
 * client sends before it sets its own, so only the entry's value ever reaches a handler.
 */
export const CLIENT_ADDRESS_HEADER = "x-ratekeeper-client-address";

/** UNKNOWN_ADDRESS is the address of a request that did not come through the server entry. */
export const UNKNOWN_ADDRESS = "unknown";

/** TrustProxy is how many proxies in front of the app to believe: 0 believes none. */
export type TrustProxy = number;

/**
 * resolveClientAddress is the address a request came from. With `trustProxy` 0 it is the
 * socket's peer, whatever the request claims. With `trustProxy` N (the app sits behind N proxies
 * that each append the address they saw to X-Forwarded-For) it is the address the outermost of
 * those N proxies saw: the N-th entry from the right, never one further left, which anyone can
 * write. A list shorter than N gives its leftmost entry, the farthest any trusted proxy vouches for.
 */
export function resolveClientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustProxy: TrustProxy,
): string {
  const forwarded = trustedForwardedValue(forwardedFor, trustProxy);
  return normalizeAddress(forwarded ?? socketAddress);
}

/**
 * trustedForwardedValue reads a list header that each proxy appends to (X-Forwarded-For,
 * X-Forwarded-Host) behind `trustProxy` proxies: the entry the outermost trusted proxy wrote,
 * the N-th from the right (or the leftmost of a shorter list), never one further left, which
 * anyone can write. Undefined when no proxy is trusted or the header is absent or empty.
 */
export function trustedForwardedValue(
  header: string | string[] | undefined,
  trustProxy: TrustProxy,
): string | undefined {
  if (trustProxy <= 0 || header === undefined) return undefined;
  const hops = (Array.isArray(header) ? header.join(",") : header)
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  // The socket's peer is the innermost proxy; it appended what it saw last.
  return hops[Math.max(0, hops.length - trustProxy)];
}

/** normalizeAddress drops IPv4-mapped IPv6 prefixes so one client has one address ("unknown" for none). */
export function normalizeAddress(address: string | undefined): string {
  if (!address) return UNKNOWN_ADDRESS;
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}

/** clientAddressOf reads the address the server entry found for a request. */
export function clientAddressOf(request: Request): string {
  return request.headers.get(CLIENT_ADDRESS_HEADER) || UNKNOWN_ADDRESS;
}
