import "server-only";
import { cookies } from "next/headers";
import { SESSION_COOKIE } from "@/lib/auth/operator";
import { getRuntime } from "@/lib/runtime";

/** currentOperator returns the signed-in operator of the page being rendered, or null. */
export async function currentOperator(): Promise<string | null> {
  const store = await cookies();
  return getRuntime().auth.actorOf(store.get(SESSION_COOKIE)?.value);
}
