"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { CustomerPicker } from "@/components/customers/customer-picker";
import { CursorPager } from "@/components/ui/cursor-pager";
import { DataTable } from "@/components/ui/data-table";
import { FilterSelect, ListToolbar, SearchField } from "@/components/ui/list-toolbar";
import { Empty, ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { TimeField } from "@/components/ui/time-field";
import { useUrlQuery } from "@/components/ui/use-url-query";
import { api } from "@/lib/client/api";
import type { AuditResponse } from "@/lib/client/types";
import { auditListQuerySchema } from "@/lib/schemas/audit-list.schema";
import { AUDIT_ACTIONS } from "@/lib/vocabulary";
import { AUDIT_COLUMNS } from "./audit-columns";
import { ACTION_LABELS } from "./audit-format";

const ACTION_OPTIONS = AUDIT_ACTIONS.map((a) => ({ value: a, label: ACTION_LABELS[a] }));

/** isoOf writes a time (ms) as the audit query takes it, ISO 8601 in UTC; undefined stays so. */
function isoOf(ms: number | undefined): string | undefined {
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/**
 * AuditLog lists operator changes newest first, a page at a time from the server, filtered by
 * action, actor, customer and time range; the view lives in the URL, so it can be shared.
 */
export function AuditLog() {
  const url = useUrlQuery(auditListQuerySchema);
  const query = url.value;
  const audit = useQuery({
    queryKey: ["audit", url.search],
    queryFn: () => api<AuditResponse>(`/audit${url.search}`),
    placeholderData: keepPreviousData,
  });
  const refine = (changes: Record<string, string | undefined>) =>
    url.set({ ...changes, after: undefined, before: undefined });
  const filtered =
    query.action !== undefined ||
    query.actor !== undefined ||
    query.customer !== undefined ||
    query.from !== undefined ||
    query.to !== undefined;
  const data = audit.data;
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change an operator made to plans, customers and overrides, newest first. Times are in your time zone."
      />
      <ListToolbar label="Filter the audit log">
        <FilterSelect
          label="Action"
          value={query.action ?? ""}
          anyLabel="Any action"
          options={ACTION_OPTIONS}
          onChange={(action) => refine({ action })}
        />
        <CustomerPicker
          label="Customer"
          value={query.customer ?? null}
          onChange={(c) => refine({ customer: c ? String(c.id) : undefined })}
        />
        <SearchField
          label="Actor"
          value={query.actor ?? ""}
          placeholder="admin"
          onSearch={(actor) => refine({ actor })}
        />
        <TimeField
          label="From"
          value={query.from}
          onChange={(from) => refine({ from: isoOf(from) })}
        />
        {/* The end is exclusive: "Before" says so, where "Until" left it to guess. */}
        <TimeField label="Before" value={query.to} onChange={(to) => refine({ to: isoOf(to) })} />
        {filtered ? (
          <button
            type="button"
            className="btn small"
            onClick={() =>
              refine({
                action: undefined,
                actor: undefined,
                customer: undefined,
                from: undefined,
                to: undefined,
              })
            }
          >
            Clear filters
          </button>
        ) : null}
      </ListToolbar>
      {url.invalid.length > 0 ? (
        <div className="notice info">
          Ignored from the address: {url.invalid.join(", ")} (not a valid value).
        </div>
      ) : null}
      <ErrorNote error={audit.error} />
      {audit.isPending ? (
        <Loading label="Loading the audit log…" />
      ) : data && data.entries.length === 0 ? (
        <Empty>
          {filtered
            ? "No change matches these filters."
            : "No changes yet. Edits to plans and customers appear here."}
        </Empty>
      ) : data ? (
        <div aria-busy={audit.isFetching && audit.isPlaceholderData}>
          <DataTable
            caption="Audit log"
            columns={AUDIT_COLUMNS}
            data={data.entries}
            getRowId={(e) => String(e.id)}
            sorted={{ column: "when", direction: "descending" }}
          />
          <CursorPager
            label="Audit log pages"
            total={data.total}
            shown={data.entries.length}
            noun={["change", "changes"]}
            prev={data.prev}
            next={data.next}
            prevLabel="Newer"
            nextLabel="Older"
            busy={audit.isFetching}
            onPage={(cursor) => url.set({ after: cursor.after, before: cursor.before }, "push")}
          />
        </div>
      ) : null}
    </>
  );
}
