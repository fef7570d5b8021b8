"use client";

import { useRouter } from "next/navigation";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useState,
} from "react";
import { ConfirmDialog } from "./confirm-dialog";

/** LeaveGuard is what the provider gives the pages under it. */
interface LeaveGuard {
  /** mark says whether the form `id` holds unsaved changes. */
  mark: (id: string, dirty: boolean) => void;
  /** confirmLeave runs `leave` at once when nothing is unsaved, else after the operator agrees. */
  confirmLeave: (leave: () => void) => void;
}

const NO_GUARD: LeaveGuard = { mark: () => {}, confirmLeave: (leave) => leave() };
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

/**
 * LeaveGuardProvider keeps unsaved edits from being thrown away: while a form under it says it
 * is dirty (useLeaveGuard), a click on a link to another page asks first, in a dialog, and
 * reloading or closing the tab meets the browser's own "Leave site?" question
 * (`beforeunload`). Code that navigates by itself asks through useConfirmLeave. Regression: the
 * plan editor said "Unsaved changes" and lost them to a click in the sidebar.
 */
export function LeaveGuardProvider({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [dirtyForms, setDirtyForms] = useState<ReadonlySet<string>>(new Set());
  const [pending, setPending] = useState<{ leave: () => void }>();
  const dirty = dirtyForms.size > 0;

  const mark = useCallback((id: string, isDirty: boolean) => {
    setDirtyForms((forms) => {
      if (forms.has(id) === isDirty) return forms;
      const next = new Set(forms);
      if (isDirty) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const confirmLeave = useCallback(
    (leave: () => void) => (dirty ? setPending({ leave }) : leave()),
    [dirty],
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = "";
    };
    // Capturing on window runs before the router's own click handling, which it then stops.
    const onClick = (event: MouseEvent) => {
      const href = leavingHref(event);
      if (href === null) return;
      event.preventDefault();
      event.stopPropagation();
      setPending({ leave: () => router.push(href) });
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    window.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("click", onClick, true);
    };
  }, [dirty, router]);

  const guard = useMemo(() => ({ mark, confirmLeave }), [mark, confirmLeave]);
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
          onCancel={() => setPending(undefined)}
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
  useEffect(() => {
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
