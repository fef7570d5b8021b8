"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useLeaveNow } from "@/components/ui/leave-guard";
import { PageHeader } from "@/components/ui/states";
import { useToast } from "@/components/ui/toast";
import { api } from "@/lib/client/api";
import type { PlanResponse } from "@/lib/client/types";
import { emptyDraft, validateCreate } from "./plan-draft";
import { PlanForm } from "./plan-form";

/** NewPlan is the page that creates a plan, then returns to the list. */
export function NewPlan() {
  const [initial] = useState(emptyDraft);
  const router = useRouter();
  const leaveNow = useLeaveNow();
  const queryClient = useQueryClient();
  const toast = useToast();
  return (
    <>
      <PageHeader
        title="New plan"
        description="A plan grants its customers read and write limits."
      />
      <PlanForm
        initial={initial}
        autoSlug
        submitLabel="Create plan"
        validate={validateCreate}
        save={async (body) => {
          const { plan } = await api<PlanResponse>("/plans", { method: "POST", body });
          await queryClient.invalidateQueries({ queryKey: ["plans"] });
          toast(`Plan “${plan.name}” created.`);
          leaveNow(() => router.push("/plans"));
          return undefined;
        }}
      />
    </>
  );
}
