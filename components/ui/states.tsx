import type { ReactNode } from "react";
import { ApiError } from "@/lib/client/api";

/** Loading shows a spinner with a label while data loads. */
export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="empty" aria-busy="true">
      <span className="spinner" /> {label}
    </div>
  );
}

/** Empty explains an empty list and offers the next step. */
export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

/** ErrorNote shows a failed request where it happened. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const message =
    error instanceof ApiError
      ? error.title
      : error instanceof Error
        ? error.message
        : String(error);
  return (
    <div className="notice error" role="alert">
      {message}
    </div>
  );
}

/** PageHeader is a page's title, a line of explanation, and its main actions. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        {description ? <p>{description}</p> : null}
      </div>
      {actions ? <div className="row">{actions}</div> : null}
    </div>
  );
}

/** QueryState is what Loaded reads of a query: its failure, its data once come, whether it first loads. */
export interface QueryState<T> {
  error: unknown;
  data: T | undefined;
  isPending: boolean;
}

/**
 * Loaded shows a query where its answer goes: its failure, then `children` of its data once the
 * data has come (the last data stays while a refresh fails), or a spinner named `label` while
 * it first loads.
 */
export function Loaded<T>({
  query,
  label,
  children,
}: {
  query: QueryState<T>;
  label?: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      <ErrorNote error={query.error} />
      {query.data !== undefined ? (
        children(query.data)
      ) : query.isPending ? (
        <Loading label={label} />
      ) : null}
    </>
  );
}
