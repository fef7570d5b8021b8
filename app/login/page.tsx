import { redirect } from "next/navigation";
import { currentOperator } from "@/lib/next/session";
import { safeNextPath } from "@/lib/next-path";
import { LoginForm } from "./login-form";

export const dynamic = "force-dynamic";

/**
 * The sign-in page; a signed-in operator goes straight on, to `next` when it is a path of this
 * server (safeNextPath), else to the overview.
 */
export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[] }>;
}) {
  const target = safeNextPath((await searchParams).next);
  if (await currentOperator()) redirect(target);
  return (
    <main className="login">
      <div className="card">
        <h1>Ratekeeper</h1>
        <p className="muted">Sign in to manage plans, customers and limits.</p>
        <LoginForm next={target} />
      </div>
    </main>
  );
}
