"use client";

import { type ComponentProps, type ReactNode, useRef } from "react";
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
 * scrollToTop brings the top of `box` into view when it is above the viewport (or under a bar
 * that sticks there: its scroll-margin-top), and leaves the page as it is otherwise.
 */
function scrollToTop(box: HTMLElement | null): void {
  if (!box) return;
  const margin = Number.parseFloat(getComputedStyle(box).scrollMarginTop) || 0;
  if (box.getBoundingClientRect().top < margin) box.scrollIntoView({ block: "start" });
}

/**
 * PagedRows holds one page of a paged list (`children`, its table of `shown` rows of the
 * answer's `page`) and the pager beneath it: marked busy while the next page replaces a shown
 * one, the pager idle while any page loads. Turning a page brings the list's top into view, so
 * the new page is read from its first row. `pager` names the pager and the rows.
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
  const top = useRef<HTMLDivElement>(null);
  return (
    <div
      ref={top}
      className="paged-rows"
      aria-busy={list.page.isFetching && list.page.isPlaceholderData}
    >
      {children}
      <CursorPager
        {...pager}
        total={page.total}
        shown={shown}
        prev={page.prev}
        next={page.next}
        busy={list.page.isFetching}
        onPage={(cursor) => {
          list.turn(cursor);
          // Regression: Next at the bottom of a page showed the bottom of the next one.
          scrollToTop(top.current);
        }}
      />
    </div>
  );
}
