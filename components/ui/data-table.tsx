"use client";

import {
  type ColumnDef,
  createColumnHelper,
  type RowData,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import type { ReactNode } from "react";

/** DataColumnMeta is what a column tells the table besides its header and cells. */
export interface DataColumnMeta {
  /** label names the column in a narrow screen's stacked rows (default: the header text). */
  label?: string;
  /** className goes on the column's header and cells ("right", "nowrap", "actions"). */
  className?: string;
}

/** dataTableFeatures are the table's features: the core only; the server sorts and pages. */
export const dataTableFeatures = tableFeatures({ columnMeta: {} as DataColumnMeta });

/** DataColumn is one column of a DataTable over rows of T. */
// biome-ignore lint/suspicious/noExplicitAny: columns of different value types share one list
export type DataColumn<T extends RowData> = ColumnDef<typeof dataTableFeatures, T, any>;

/** dataColumns returns a column helper for rows of T (accessor and display columns). */
export function dataColumns<T extends RowData>() {
  return createColumnHelper<typeof dataTableFeatures, T>();
}

/** Sorted names the column the rows are ordered by, for aria-sort on its header. */
export interface Sorted {
  column: string;
  direction: "ascending" | "descending";
}

/**
 * DataTable renders rows under column definitions (TanStack Table): a captioned table whose rows
 * stack into labelled cards on narrow screens (`reflow`), or that scrolls sideways in a
 * keyboard-focusable region. Columns, data and getRowId must be stable between renders.
 */
export function DataTable<T extends RowData>({
  caption,
  columns,
  data,
  getRowId,
  sorted,
  rowClassName,
  reflow = "narrow",
  footer,
}: {
  caption: string;
  columns: readonly DataColumn<T>[];
  data: readonly T[];
  getRowId: (row: T) => string;
  sorted?: Sorted;
  rowClassName?: (row: T) => string | undefined;
  /**
   * reflow is below which width rows stack into cards: "narrow" (a phone, under 720 px),
   * "wide" (under 1024 px, for tables with many controls), or false to scroll sideways instead.
   */
  reflow?: "narrow" | "wide" | false;
  footer?: ReactNode;
}) {
  const table = useTable({
    features: dataTableFeatures,
    columns: columns as DataColumn<T>[],
    data: data as T[],
    getRowId: (row) => getRowId(row),
  });
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const labels = new Map(
    headers.map((h) => {
      const def = h.column.columnDef;
      return [h.column.id, def.meta?.label ?? (typeof def.header === "string" ? def.header : "")];
    }),
  );
  return (
    <div
      className={reflow ? "table-wrap" : "table-wrap scroll"}
      {...(reflow ? {} : { role: "region", "aria-label": caption, tabIndex: 0 })}
    >
      <table
        className={
          reflow ? `data-table reflow${reflow === "wide" ? " reflow-wide" : ""}` : "data-table"
        }
      >
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {headers.map((header) => (
              <th
                key={header.id}
                scope="col"
                className={header.column.columnDef.meta?.className}
                aria-sort={sorted?.column === header.column.id ? sorted.direction : undefined}
              >
                {header.isPlaceholder ? null : <table.FlexRender header={header} />}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} className={rowClassName?.(row.original)}>
              {row.getAllCells().map((cell) => (
                <td
                  key={cell.id}
                  className={cell.column.columnDef.meta?.className}
                  data-label={labels.get(cell.column.id) || undefined}
                >
                  <span className="cell">
                    <table.FlexRender cell={cell} />
                  </span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {footer}
    </div>
  );
}
