"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useState } from "react";
import { Empty, ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { api } from "@/lib/client/api";
import type {
  CreatedCustomerResponse,
  CustomerListItem,
  CustomersResponse,
  PlansResponse,
} from "@/lib/client/types";
import { CreateCustomerForm } from "./create-customer-form";
import { CustomerActionDialog } from "./customer-action-dialog";
import { type CustomerAction, CustomerRow } from "./customer-row";
import { KeyReveal } from "./key-reveal";

/** CustomersPage lists customers with their plan, status, key prefix and recent traffic. */
export function CustomersPage() {
  const customers = useQuery({
    queryKey: ["customers"],
    queryFn: () => api<CustomersResponse>("/customers"),
    refetchInterval: 5_000,
  });
  const plans = useQuery({ queryKey: ["plans"], queryFn: () => api<PlansResponse>("/plans") });
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<{ title: string; apiKey: string }>();
  const [pending, setPending] = useState<{ action: CustomerAction; customer: CustomerListItem }>();
  const closeDialog = useCallback(() => setPending(undefined), []);
  const onAction = useCallback(
    (action: CustomerAction, customer: CustomerListItem) => setPending({ action, customer }),
    [],
  );
  const onRotated = useCallback(
    ({ customer, apiKey }: CreatedCustomerResponse) =>
      setRevealed({ title: `New API key for ${customer.name}`, apiKey }),
    [],
  );
  const planList = plans.data?.plans ?? [];

  return (
    <>
      <PageHeader
        title="Customers"
        description="Who calls the API, on which plan, and how much of it was refused lately."
        actions={
          <button
            type="button"
            className="btn primary"
            disabled={creating || !plans.data}
            onClick={() => {
              setRevealed(undefined);
              setCreating(true);
            }}
          >
            New customer
          </button>
        }
      />
      {revealed ? (
        <KeyReveal
          title={revealed.title}
          apiKey={revealed.apiKey}
          onDone={() => setRevealed(undefined)}
        />
      ) : null}
      {creating ? (
        planList.length === 0 ? (
          <div className="notice info">
            Customers need a plan: <Link href="/plans/new">create a plan</Link> first.
          </div>
        ) : (
          <CreateCustomerForm
            plans={planList}
            onCancel={() => setCreating(false)}
            onCreated={({ customer, apiKey }) => {
              setCreating(false);
              setRevealed({ title: `API key for ${customer.name}`, apiKey });
            }}
          />
        )
      ) : null}
      <ErrorNote error={customers.error ?? plans.error} />
      {customers.isPending ? (
        <Loading label="Loading customers…" />
      ) : customers.data?.customers.length === 0 ? (
        <Empty>No customers yet. Create one to issue its API key.</Empty>
      ) : customers.data ? (
        <div className="card flush">
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Plan</th>
                <th>Status</th>
                <th>Key</th>
                <th title="Allowed / denied requests over the last 5 minutes">
                  Last 5 min <span className="th-sub">allowed / denied</span>
                </th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {customers.data.customers.map((customer) => (
                <CustomerRow
                  key={customer.id}
                  customer={customer}
                  plans={planList}
                  onAction={onAction}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {pending ? (
        <CustomerActionDialog
          action={pending.action}
          customer={pending.customer}
          onClose={closeDialog}
          onRotated={onRotated}
        />
      ) : null}
    </>
  );
}
