"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import type { CustomerResponse } from "@/lib/client/types";
import type { CustomerUpdate } from "@/lib/schemas/customer.schema";

/**
 * useCustomerPatch changes one customer (its plan, its status): once the server has it, the
 * customer lists are refreshed (waited for) and the plans' too (their customer counts), then
 * `onPatched` gets the customer as it now is; `onError` hears of a failure.
 */
export function useCustomerPatch(
  customerId: number,
  {
    onPatched,
    onError,
  }: {
    onPatched: (customer: CustomerResponse["customer"]) => void;
    onError?: (error: Error) => void;
  },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CustomerUpdate) =>
      api<CustomerResponse>(`/customers/${customerId}`, { method: "PATCH", body }),
    onSuccess: async ({ customer }) => {
      await queryClient.invalidateQueries({ queryKey: ["customers"] });
      void queryClient.invalidateQueries({ queryKey: ["plans"] });
      onPatched(customer);
    },
    onError,
  });
}
