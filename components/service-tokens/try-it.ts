import type { ServiceTokenScope } from "@/lib/vocabulary";

/** TryIt is a first decision call for a new service token: its title, a note, the command. */
export interface TryIt {
  title: string;
  note: string;
  command: string;
}

/**
 * tryItFor writes a first call a new service token can run as it is, with curl, for its scopes:
 * a token that decides takes one read token from a customer's buckets; a peek-only token asks
 * with `"peek": true`, taking none. Regression: a peek-only token was shown the deciding call,
 * which needs the decide scope and was refused 403.
 */
export function tryItFor(
  origin: string,
  token: string,
  scopes: readonly ServiceTokenScope[],
): TryIt {
  const decides = scopes.includes("decide");
  const peek = decides ? "" : `, "peek": true`;
  const command = [
    `curl -s ${origin}/api/v1/decisions \\`,
    `  -H "Authorization: Bearer ${token}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"key": "rk_…customer key…", "operation": "read"${peek}}'`,
  ].join("\n");
  return decides
    ? {
        title: "Try it: one decision with curl",
        note: "Put a customer’s API key in place of rk_…customer key…: the call takes one read token from that customer’s buckets, as a request of theirs would.",
        command,
      }
    : {
        title: "Try it: one peek with curl",
        note: 'This token only peeks: it asks whether a read would pass and takes no token (a call without "peek": true is refused 403). Put a customer’s API key in place of rk_…customer key….',
        command,
      };
}
