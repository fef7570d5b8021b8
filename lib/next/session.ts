import "server-only";
import { cookies } from "next/headers";
import { SESSION_COOKIE } from "@/lib/auth/operator";
import { getRuntime } from "@/lib/runtime";

/**
 * currentOperator returns the signed-in operator of the page being rendered, or null. Next's
 * cookie reader skips a value that is not valid percent-encoding, so a malformed session cookie
 * is no session here too (as cookieValue does for the API).
 */
export async function currentOperator(): Promise<string | null> {
  const store = await cookies();
  return getRuntime().auth.actorOf(store.get(SESSION_COOKIE)?.value);
}
