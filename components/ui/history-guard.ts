import { markOf, withMark } from "./history-mark";

/** HistoryLike is the part of `window.history` the guard uses (a fake one in tests). */
export interface HistoryLike {
  readonly state: unknown;
  pushState(data: unknown, unused: string, url?: string | URL | null): void;
  replaceState(data: unknown, unused: string, url?: string | URL | null): void;
  back(): void;
  forward(): void;
  go(delta?: number): void;
}

/** HistoryHost is what the guard reads and drives: the history and the page's address. */
export interface HistoryHost {
  history: HistoryLike;
  /** href is the page's current address. */
  href(): string;
  /**
   * index is the current entry's place in the session history, where the browser tells it
   * (the Navigation API), to return to the right entry after a jump of several; else undefined.
   */
  index(): number | undefined;
  /** canGoBack says whether there is an entry before this one (undefined: not known). */
  canGoBack(): boolean | undefined;
  /** replay hands the current entry to the router, as if the browser had just traversed to it. */
  replay(): void;
}

/** LeaveQuestion is what the guard asks when the operator traversed away with unsaved changes. */
export interface LeaveQuestion {
  /** stay returns to the page's entry, edits and all. */
  stay(): void;
  /** leave goes on to where the operator was going; the edits are dropped. */
  leave(): void;
}

/** PopAnswer tells the page what to do with a popstate: let the router see it, or hide it. */
export type PopAnswer = "pass" | "swallow";

type Pending =
  | { kind: "drop"; state: unknown; href: string; after: (() => void)[] }
  | { kind: "ask"; atBase: boolean; token: object }
  | { kind: "restore" };

let arming = 0;

/**
 * HistoryGuard makes the browser's Back and Forward buttons ask before unsaved changes are
 * thrown away, with the one trick history allows: while the page is dirty (`arm`), a copy of the
 * page's entry (the guard) is pushed on top of it, so that Back lands on the page's own entry
 * (the base) instead of leaving. The popstate of that landing is hidden from the router and the
 * operator is asked: staying goes forward to the guard again, leaving goes one more step back.
 * Once the page is clean (`disarm`: saved or undone) or is left on purpose (`dropThen`), the
 * guard entry is taken off again (one step back, hidden, the base then rewritten to the page's
 * current address and state), so no dead entry stays behind. Each arming has its own id in the
 * entries' state, kept there when the router rewrites the entry (`stateToWrite`). Regression: the
 * plan editor said "Unsaved changes" and the Back button threw them away without a question.
 *
 * Limits: history cannot be rewritten behind the current entry, so forward history past the page
 * is dropped while it is dirty; and the page must change its own address only by replacing (the
 * guarded pages do), as an entry pushed over the guard would count as leaving.
 */
export class HistoryGuard {
  readonly #host: HistoryHost;
  readonly #ask: (question: LeaveQuestion) => void;
  readonly #settle: () => void;
  #armed = false;
  #leaving = false;
  #id = "";
  #guardIndex: number | undefined;
  #pending: Pending | undefined;

  /**
   * The guard asks through `ask` (a dialog whose buttons call stay or leave) and calls `settle`
   * when the question went away by itself (the operator pressed Forward back to the page).
   */
  constructor(host: HistoryHost, ask: (question: LeaveQuestion) => void, settle: () => void) {
    this.#host = host;
    this.#ask = ask;
    this.#settle = settle;
  }

  /**
   * dropping is true while the guard entry is coming off (a step back under way): a navigation
   * of the page's own must wait for it through dropThen, or the two cross.
   */
  get dropping(): boolean {
    return this.#pending?.kind === "drop";
  }

  /** leaving is true once the operator chose to leave: nothing should ask again (beforeunload). */
  get leaving(): boolean {
    return this.#leaving;
  }

  /**
   * start takes off a guard entry left by an earlier page load (the page was reloaded with
   * unsaved changes, and the operator let them go), so that Back does not land on a copy of it.
   */
  start(): void {
    if (markOf(this.#host.history.state)?.role === "guard") this.#drop(() => {}, true);
  }

  /** arm starts guarding the current entry (the page became dirty); a no-op while armed. */
  arm(): void {
    if (this.#armed) return;
    this.#armed = true;
    this.#leaving = false;
    // A drop under way pushes the guard again when it lands (the page was edited meanwhile).
    if (this.#pending?.kind !== "drop") this.#push();
  }

  /**
   * disarm stops guarding (the page is clean again) and takes the guard entry off. A Back that
   * is waiting on the question goes on: what it would have thrown away is saved now (a save
   * that landed just after the button was pressed).
   */
  disarm(): void {
    if (!this.#armed && !this.#leaving) return;
    const pending = this.#pending;
    if (pending?.kind === "ask") {
      this.#pending = undefined;
      this.#armed = false;
      this.#settle();
      if (!pending.atBase) {
        // A jump of several entries: the browser is already where the operator was going.
        this.#leaving = true;
        this.#host.replay();
      } else if (this.#host.canGoBack() !== false) {
        this.#leaving = true;
        this.#host.history.back();
      }
      // Else nothing is before the page: it stays, the guard entry a harmless step forward.
      return;
    }
    this.#armed = false;
    this.#leaving = false;
    if (pending?.kind === "restore") {
      this.#pending = undefined;
      this.#settle();
    }
    this.#drop(() => {});
  }

  /**
   * dropThen runs `go` (a navigation of the page's own: a link, sign-out, a saved form moving on)
   * once the guard entry is off the history, so the entry `go` adds or replaces is not stacked on
   * a dead copy of this page. From then on nothing asks, until the page is armed again.
   */
  dropThen(go: () => void): void {
    this.#leaving = this.#armed;
    this.#drop(go);
  }

  /**
   * stateToWrite is the state to give history.replaceState: `data` as it is, except that a
   * rewrite of the guard entry (the router replacing it with its own state, a range chosen on
   * the same page) keeps the guard's mark, so the entry is still known for what it is.
   */
  stateToWrite(data: unknown, url?: string | URL | null): unknown {
    if (!this.#armed || this.#leaving || !this.#onGuard() || markOf(data) !== undefined) {
      return data;
    }
    if (url !== undefined && url !== null) {
      const here = new URL(this.#host.href());
      if (new URL(String(url), here).pathname !== here.pathname) return data;
    }
    if (typeof data !== "object" && data !== undefined && data !== null) return data;
    return withMark(data, { id: this.#id, role: "guard" });
  }

  /**
   * popState answers the browser's popstate with the entry it landed on (its `state`): "swallow"
   * when the router must not see it (the guard handled it), "pass" otherwise.
   */
  popState(state: unknown): PopAnswer {
    const pending = this.#pending;
    if (pending?.kind === "drop") {
      this.#pending = undefined;
      // The base becomes what the page shows now (a range chosen meanwhile, say), unmarked.
      this.#host.history.replaceState(withMark(pending.state, undefined), "", pending.href);
      if (this.#armed && !this.#leaving) this.#push();
      for (const go of pending.after) go();
      return "swallow";
    }
    if (!this.#armed || this.#leaving) return "pass";
    const mark = markOf(state);
    const ours = mark?.id === this.#id;
    if (ours && mark?.role === "guard") {
      if (pending === undefined) return "pass";
      // Back on the guard (staying, or Forward while asked), where the router still is.
      this.#pending = undefined;
      if (pending.kind === "ask") this.#settle();
      return "swallow";
    }
    const atBase = ours && mark?.role === "base";
    if (pending?.kind === "ask") {
      // Another step while the question is open: leaving now means going where this one went.
      pending.atBase = atBase;
      return "swallow";
    }
    const token = {};
    this.#pending = { kind: "ask", atBase, token };
    this.#ask({ stay: () => this.#stay(token), leave: () => this.#leave(token) });
    return "swallow";
  }

  #push(): void {
    const { history } = this.#host;
    const current = markOf(history.state);
    if (current?.role === "guard") {
      // A guard entry of an earlier arming (reached by Forward): it is this page's copy, with
      // its base before it; guard it again rather than stacking another copy on it.
      this.#id = current.id;
    } else {
      arming += 1;
      this.#id = `${arming}.${Math.random().toString(36).slice(2, 8)}`;
      history.replaceState(withMark(history.state, { id: this.#id, role: "base" }), "");
      history.pushState(withMark(history.state, { id: this.#id, role: "guard" }), "");
    }
    this.#guardIndex = this.#host.index();
  }

  #onGuard(): boolean {
    const mark = markOf(this.#host.history.state);
    return mark?.id === this.#id && mark.role === "guard";
  }

  #drop(then: () => void, anyGuard = false): void {
    const pending = this.#pending;
    if (pending?.kind === "drop") {
      pending.after.push(then);
      return;
    }
    const { history } = this.#host;
    if (!(anyGuard ? markOf(history.state)?.role === "guard" : this.#onGuard())) {
      then();
      return;
    }
    this.#pending = { kind: "drop", state: history.state, href: this.#host.href(), after: [then] };
    history.back();
  }

  #stay(token: object): void {
    const pending = this.#pending;
    if (pending?.kind !== "ask" || pending.token !== token) return;
    this.#pending = { kind: "restore" };
    const here = this.#host.index();
    const guard = this.#guardIndex;
    if (here !== undefined && guard !== undefined && guard > here) {
      this.#host.history.go(guard - here);
    } else {
      this.#host.history.forward();
    }
  }

  #leave(token: object): void {
    const pending = this.#pending;
    if (pending?.kind !== "ask" || pending.token !== token) return;
    this.#pending = undefined;
    if (!pending.atBase) {
      // A jump of several entries: the browser is already where the operator was going.
      this.#leaving = true;
      this.#host.replay();
      return;
    }
    if (this.#host.canGoBack() === false) {
      // Nothing before the page: Back could not have left it, so there is nowhere to go.
      this.#pending = { kind: "restore" };
      this.#host.history.forward();
      return;
    }
    this.#leaving = true;
    this.#host.history.back();
  }
}
