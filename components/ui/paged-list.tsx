"use client";

import type { ComponentProps, ReactNode } from "react";
import { CursorPager } from "./cursor-pager";
import type { PagedList } from "./use-paged-list";

/** IgnoredParams names the URL's parameters a list dropped as invalid; nothing when none were. */
export function IgnoredParams({ invalid }: { invalid: readonly string[] }) {
  return invalid.length > 0 ? (
    <div className="notice info">
      Ignored from the address: {invalid.join(", ")} (not a valid value).
    </div>
  ) : null;
}

/** PageAnswer is what a paged list's answer says of its pages: the total and the cursors. */
export interface PageAnswer {
  total: number;
  prev: string | null;
  next: string | null;
}

/**
 * PagedRows holds one page of a paged list (`children`, its table of `shown` rows of the
 * answer's `page`) and the pager beneath it: marked busy while the next page replaces a shown
 * one, the pager idle while any page loads. `pager` names the pager and the rows.
 */
export function PagedRows({
  list,
  page,
  shown,
  pager,
  children,
}: {
  list: PagedList<unknown, unknown>;
  page: PageAnswer;
  shown: number;
  pager: Pick<ComponentProps<typeof CursorPager>, "label" | "noun" | "prevLabel" | "nextLabel">;
  children: ReactNode;
}) {
  return (
    <div aria-busy={list.page.isFetching && list.page.isPlaceholderData}>
      {children}
      <CursorPager
        {...pager}
        total={page.total}
        shown={shown}
        prev={page.prev}
        next={page.next}
        busy={list.page.isFetching}
        onPage={list.turn}
      />
    </div>
  );
}
