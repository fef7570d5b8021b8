"use client";

import { useRouter } from "next/navigation";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { ConfirmDialog } from "./confirm-dialog";
import { HistoryGuard, type HistoryHost } from "./history-guard";

/** LeaveGuard is what the provider gives the pages under it. */
interface LeaveGuard {
  /** mark says whether the form `id` holds unsaved changes. */
  mark: (id: string, dirty: boolean) => void;
  /** confirmLeave runs `leave` at once when nothing is unsaved, else after the operator agrees. */
  confirmLeave: (leave: () => void) => void;
  /** leaveNow runs `leave` without asking (the changes were just saved), the history tidied. */
  leaveNow: (leave: () => void) => void;
}

const NO_GUARD: LeaveGuard = {
  mark: () => {},
  confirmLeave: (leave) => leave(),
  leaveNow: (leave) => leave(),
};
const LeaveGuardContext = createContext<LeaveGuard>(NO_GUARD);

/**
 * leavingHref is where a click on a link would take the page, when that means leaving it with
 * the router: a plain left click on a same-origin link to another path (a new tab, a download, a
 * link within the page or to another site is not; the last meets `beforeunload`).
 */
function leavingHref(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if ((anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin || url.pathname === window.location.pathname) {
    return null;
  }
  return url.pathname + url.search + url.hash;
}

/** Navigation is the part of the browser's Navigation API the guard reads, where there is one. */
interface Navigation {
  currentEntry?: { index: number } | null;
  canGoBack?: boolean;
}

/** windowHost is the browser's history for the HistoryGuard. */
function windowHost(): HistoryHost {
  const navigation = (window as { navigation?: Navigation }).navigation;
  return {
    history: window.history,
    href: () => window.location.href,
    index: () => navigation?.currentEntry?.index,
    canGoBack: () => navigation?.canGoBack,
    // The router listens for popstate: a fresh one hands it the entry the browser is on.
    replay: () =>
      window.dispatchEvent(new PopStateEvent("popstate", { state: window.history.state })),
  };
}

/**
 * LeaveGuardProvider keeps unsaved edits from being thrown away: while a form under it says it
 * is dirty (useLeaveGuard), a click on a link to another page and the browser's Back button ask
 * first, in a dialog (the HistoryGuard does the history's part), and reloading or closing the
 * tab meets the browser's own "Leave site?" question (`beforeunload`). Code that navigates by
 * itself asks through useConfirmLeave, or goes at once through useLeaveNow after saving.
 * Regressions: the plan editor said "Unsaved changes" and lost them to a click in the sidebar,
 * and to the Back button.
 */
export function LeaveGuardProvider({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [dirtyForms, setDirtyForms] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState<{ leave: () => void; stay?: () => void }>();
  const history = useRef<HistoryGuard | undefined>(undefined);
  /** dirtyIds holds the forms' marks at once; dirtyForms, the same as state, re-renders. */
  const dirtyIds = useRef(new Set<string>());
  const dirty = dirtyForms.size > 0;

  // One HistoryGuard per provider: it hears popstate before the router (a capturing listener on
  // window runs first) and keeps its mark when the router rewrites the entry.
  useEffect(() => {
    const guard = new HistoryGuard(
      windowHost(),
      (question) => setPending({ leave: question.leave, stay: question.stay }),
      () => setPending(undefined),
    );
    history.current = guard;
    const onPopState = (event: PopStateEvent) => {
      if (guard.popState(event.state) === "swallow") event.stopImmediatePropagation();
    };
    window.addEventListener("popstate", onPopState, true);
    const replaceState = window.history.replaceState;
    const keepingMark: History["replaceState"] = function (this: History, data, unused, url) {
      replaceState.call(this, guard.stateToWrite(data, url), unused, url);
    };
    window.history.replaceState = keepingMark;
    guard.start();
    return () => {
      window.removeEventListener("popstate", onPopState, true);
      if (window.history.replaceState === keepingMark) window.history.replaceState = replaceState;
      history.current = undefined;
    };
  }, []);

  useEffect(() => {
    if (dirty) history.current?.arm();
    else history.current?.disarm();
  }, [dirty]);

  const mark = useCallback((id: string, isDirty: boolean) => {
    if (isDirty) dirtyIds.current.add(id);
    else dirtyIds.current.delete(id);
    setDirtyForms((forms) => {
      if (forms.has(id) === isDirty) return forms;
      const next = new Set(forms);
      if (isDirty) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const leaveNow = useCallback((leave: () => void) => {
    const guard = history.current;
    if (guard) guard.dropThen(leave);
    else leave();
  }, []);
  const confirmLeave = useCallback(
    (leave: () => void) => (dirty ? setPending({ leave: () => leaveNow(leave) }) : leaveNow(leave)),
    [dirty, leaveNow],
  );

  // Registered once and reading the forms' marks as they are made (before the page paints "Unsaved
  // changes"): a listener added after the next render left a moment in which closing the tab
  // with edits on screen asked nothing.
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (dirtyIds.current.size === 0) return;
      // Leaving was agreed to in the dialog already (Back to a page loaded on its own).
      if (history.current?.leaving) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, []);

  useEffect(() => {
    // Capturing on window runs before the router's own click handling, which it then stops.
    const onClick = (event: MouseEvent) => {
      const href = leavingHref(event);
      if (href === null) return;
      if (dirty) {
        event.preventDefault();
        event.stopPropagation();
        setPending({ leave: () => leaveNow(() => router.push(href)) });
      } else if (history.current?.dropping) {
        // Just saved, the guard entry still coming off: the link waits for it, else the two
        // cross and the page lands back on the editor's address. Regression: a link clicked
        // right after saving stayed on the plan.
        event.preventDefault();
        event.stopPropagation();
        leaveNow(() => router.push(href));
      }
    };
    window.addEventListener("click", onClick, true);
    return () => window.removeEventListener("click", onClick, true);
  }, [dirty, router, leaveNow]);

  const guard = useMemo(() => ({ mark, confirmLeave, leaveNow }), [mark, confirmLeave, leaveNow]);
  return (
    <LeaveGuardContext.Provider value={guard}>
      {children}
      {pending ? (
        <ConfirmDialog
          title="Leave without saving?"
          confirmLabel="Leave without saving"
          onConfirm={() => {
            setPending(undefined);
            pending.leave();
          }}
          onCancel={() => {
            setPending(undefined);
            pending.stay?.();
          }}
        >
          <p>This page has changes that are not saved. If you leave now, they are lost.</p>
        </ConfirmDialog>
      ) : null}
    </LeaveGuardContext.Provider>
  );
}

/** useLeaveGuard tells the LeaveGuardProvider whether this form holds unsaved changes. */
export function useLeaveGuard(dirty: boolean): void {
  const id = useId();
  const { mark } = useContext(LeaveGuardContext);
  // Before the browser paints: once a form shows its edits, closing the tab asks.
  useLayoutEffect(() => {
    mark(id, dirty);
    return () => mark(id, false);
  }, [id, dirty, mark]);
}

/**
 * useConfirmLeave returns a function that runs a navigation of the page's own (a sign-out, a
 * redirect) at once, or after the operator agrees to drop unsaved changes.
 */
export function useConfirmLeave(): (leave: () => void) => void {
  return useContext(LeaveGuardContext).confirmLeave;
}

/**
 * useLeaveNow returns a function that runs a navigation of the page's own without asking, for a
 * form that has just saved its changes and moves on (a created plan returns to the list): the
 * Back button's guard entry is taken off first, so Back does not land on a copy of the form.
 */
export function useLeaveNow(): (leave: () => void) => void {
  return useContext(LeaveGuardContext).leaveNow;
}
