"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useMemo, useState } from "react";
import { PlanPicker } from "@/components/plans/plan-picker";
import { DataTable } from "@/components/ui/data-table";
import { FilterSelect, ListToolbar, SearchField } from "@/components/ui/list-toolbar";
import { IgnoredParams, PagedRows } from "@/components/ui/paged-list";
import { Empty, ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { usePagedList } from "@/components/ui/use-paged-list";
import { api } from "@/lib/client/api";
import type {
  CreatedCustomerResponse,
  CustomerListItem,
  CustomersResponse,
  PlansResponse,
} from "@/lib/client/types";
import { customerListQuerySchema } from "@/lib/schemas/customer-list.schema";
import { CreateCustomerForm } from "./create-customer-form";
import { CustomerActionDialog } from "./customer-action-dialog";
import { type CustomerAction, customerColumns } from "./customer-columns";
import { KeyReveal } from "./key-reveal";

/** TRAFFIC_REFRESH_MS is how often the list's traffic counts refresh by themselves. */
const TRAFFIC_REFRESH_MS = 10_000;

const SORTS = [
  { value: "newest", label: "Newest first" },
  { value: "name", label: "Name, A to Z" },
  { value: "traffic", label: "Most traffic, last 5 min" },
];
const STATUSES = [
  { value: "active", label: "Active" },
  { value: "suspended", label: "Suspended" },
];
const SORTED_COLUMN = {
  name: { column: "name", direction: "ascending" },
  traffic: { column: "traffic", direction: "descending" },
} as const;

/**
 * CustomersPage lists customers a page at a time from the server: searched by name, key prefix
 * or id, filtered by plan and status, sorted newest first, by name or by recent traffic; the
 * view lives in the URL, so it can be shared. A change refreshes the list at once.
 */
export function CustomersPage() {
  const list = usePagedList<typeof customerListQuerySchema, CustomersResponse>({
    schema: customerListQuerySchema,
    key: ["customers", "list"],
    path: "/customers",
    refreshMs: TRAFFIC_REFRESH_MS,
  });
  const { url, page: customers, refine } = list;
  const query = url.value;
  const queryClient = useQueryClient();
  const plans = useQuery({ queryKey: ["plans"], queryFn: () => api<PlansResponse>("/plans") });
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<{ title: string; apiKey: string; id: number }>();
  const [pending, setPending] = useState<{ action: CustomerAction; customer: CustomerListItem }>();
  const closeDialog = useCallback(() => setPending(undefined), []);
  const onAction = useCallback(
    (action: CustomerAction, customer: CustomerListItem) => setPending({ action, customer }),
    [],
  );
  const onRotated = useCallback(
    ({ customer, apiKey }: CreatedCustomerResponse) =>
      setRevealed({ title: `New API key for ${customer.name}`, apiKey, id: customer.id }),
    [],
  );
  const planList = plans.data?.plans ?? [];
  const columns = useMemo(() => customerColumns(planList, onAction), [planList, onAction]);
  const filtered = query.q !== undefined || query.plan !== undefined || query.status !== undefined;
  const data = customers.data;

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
          inspectorHref={`/customers/${revealed.id}`}
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
            onCreated={async ({ customer, apiKey }) => {
              setCreating(false);
              setRevealed({ title: `API key for ${customer.name}`, apiKey, id: customer.id });
              // Regression: the list waited for its next timed refresh to show the new customer.
              await queryClient.invalidateQueries({ queryKey: ["customers"] });
              void queryClient.invalidateQueries({ queryKey: ["plans"] });
            }}
          />
        )
      ) : null}
      <ListToolbar label="Find customers">
        <SearchField
          label="Search"
          value={query.q ?? ""}
          placeholder="Name, key prefix (rk_…) or #id"
          onSearch={(q) => refine({ q })}
        />
        <PlanPicker
          label="Plan filter"
          plans={planList}
          value={query.plan ?? null}
          placeholder="All plans"
          onChange={(plan) => refine({ plan: plan ? String(plan.id) : undefined })}
        />
        {query.plan !== undefined ? (
          <button
            type="button"
            className="btn small"
            aria-label="Show customers of every plan"
            onClick={() => refine({ plan: undefined })}
          >
            All plans
          </button>
        ) : null}
        <FilterSelect
          label="Status"
          value={query.status ?? ""}
          anyLabel="Any status"
          options={STATUSES}
          onChange={(status) => refine({ status })}
        />
        <FilterSelect
          label="Sort"
          value={query.sort}
          options={SORTS}
          onChange={(sort) => refine({ sort: sort === "newest" ? undefined : sort })}
        />
      </ListToolbar>
      <IgnoredParams invalid={url.invalid} />
      <ErrorNote error={customers.error ?? plans.error} />
      {customers.isPending ? (
        <Loading label="Loading customers…" />
      ) : data && data.customers.length === 0 ? (
        filtered ? (
          <Empty>
            No customer matches these filters.{" "}
            <button
              type="button"
              className="btn small"
              onClick={() => refine({ q: undefined, plan: undefined, status: undefined })}
            >
              Clear filters
            </button>
          </Empty>
        ) : data.total === 0 ? (
          <Empty>No customers yet. Create one to issue its API key.</Empty>
        ) : (
          <Empty>
            This page is empty now. <Link href="/customers">Back to the first page</Link>
          </Empty>
        )
      ) : data ? (
        <PagedRows
          list={list}
          page={data}
          shown={data.customers.length}
          pager={{ label: "Customer pages", noun: ["customer", "customers"] }}
        >
          <DataTable
            caption="Customers"
            columns={columns}
            data={data.customers}
            getRowId={(c) => String(c.id)}
            sorted={query.sort === "newest" ? undefined : SORTED_COLUMN[query.sort]}
            rowClassName={(c) => (c.status === "suspended" ? "dimmed" : undefined)}
            reflow="wide"
          />
        </PagedRows>
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
