import type { Db } from "@/db/client";
import type { ServiceTokenRefusals } from "@/lib/auth/service-token-refusals";
import type { ServiceTokenUsage } from "@/lib/auth/service-token-usage";
import type { DecisionContext } from "@/lib/policy/decide";
import type { DatabasePolicy } from "@/lib/policy/policy-store";

/**
 * AdminContext is what the operator services need of the process: the database, the policy to
 * rebuild after a change, and what deciding needs (the dashboard's test request decides). The
 * runtime is one; the services name only this, so they sit below it.
 */
export interface AdminContext extends DecisionContext {
  db: Db;
  /** policy is rebuilt and announced after each committed edit (`applyEdit`). */
  policy: DatabasePolicy;
  /** serviceTokenUsage holds service tokens' last uses not yet written. */
  serviceTokenUsage: ServiceTokenUsage;
  /** serviceTokenRefusals counts the decision calls refused for their token (this instance's). */
  serviceTokenRefusals: ServiceTokenRefusals;
}
