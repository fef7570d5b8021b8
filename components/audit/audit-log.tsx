"use client";

import { CustomerPicker } from "@/components/customers/customer-picker";
import { DataTable } from "@/components/ui/data-table";
import { FilterSelect, ListToolbar, SearchField } from "@/components/ui/list-toolbar";
import { IgnoredParams, PagedRows } from "@/components/ui/paged-list";
import { Empty, ErrorNote, Loading, PageHeader } from "@/components/ui/states";
import { TimeField } from "@/components/ui/time-field";
import { usePagedList } from "@/components/ui/use-paged-list";
import type { AuditResponse } from "@/lib/client/types";
import { auditListQuerySchema } from "@/lib/schemas/audit-list.schema";
import { AUDIT_ACTIONS } from "@/lib/vocabulary";
import { AUDIT_COLUMNS } from "./audit-columns";
import { ACTION_LABELS, AUDITED } from "./audit-format";

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
  const list = usePagedList<typeof auditListQuerySchema, AuditResponse>({
    schema: auditListQuerySchema,
    key: ["audit"],
    path: "/audit",
    refreshMs: false,
  });
  const { url, page: audit, refine } = list;
  const query = url.value;
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
        description={`Every change an operator made to ${AUDITED}, newest first. Times are in your time zone.`}
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
      <IgnoredParams invalid={url.invalid} />
      <ErrorNote error={audit.error} />
      {audit.isPending ? (
        <Loading label="Loading the audit log…" />
      ) : data && data.entries.length === 0 ? (
        <Empty>
          {filtered
            ? "No change matches these filters."
            : `No changes yet. Changes to ${AUDITED} appear here.`}
        </Empty>
      ) : data ? (
        <PagedRows
          list={list}
          page={data}
          shown={data.entries.length}
          pager={{
            label: "Audit log pages",
            noun: ["change", "changes"],
            prevLabel: "Newer",
            nextLabel: "Older",
          }}
        >
          <DataTable
            caption="Audit log"
            columns={AUDIT_COLUMNS}
            data={data.entries}
            getRowId={(e) => String(e.id)}
            sorted={{ column: "when", direction: "descending" }}
          />
        </PagedRows>
      ) : null}
    </>
  );
}
