import { beforeEach, describe, expect, it } from "vitest";
import { HistoryGuard, type HistoryHost, type LeaveQuestion } from "@/components/ui/history-guard";
import { HISTORY_MARK } from "@/components/ui/history-mark";

interface Entry {
  state: unknown;
  href: string;
}

/**
 * FakeBrowser is a session history as a browser keeps it: push drops the forward entries,
 * traversals land later (on `settle`) with a popstate that the guard answers first, and what it
 * passes reaches the "router" (`routed`). replaceState goes through the guard's stateToWrite, as
 * the page's patched history.replaceState does.
 */
class FakeBrowser {
  entries: Entry[];
  index: number;
  routed: string[] = [];
  queued: number[] = [];
  guard!: HistoryGuard;
  questions: LeaveQuestion[] = [];
  settled = 0;
  navigationApi = true;

  constructor(entries: string[]) {
    this.entries = entries.map((href) => ({ state: { __NA: true, tree: href }, href }));
    this.index = this.entries.length - 1;
  }

  get href(): string {
    return (this.entries[this.index] as Entry).href;
  }

  get state(): unknown {
    return (this.entries[this.index] as Entry).state;
  }

  host(): HistoryHost {
    const browser = this;
    return {
      history: {
        get state() {
          return browser.state;
        },
        pushState: (data, _unused, url) => browser.push(data, url ? String(url) : browser.href),
        replaceState: (data, _unused, url) => browser.replace(data, url),
        back: () => browser.go(-1),
        forward: () => browser.go(1),
        go: (delta = 0) => browser.go(delta),
      },
      href: () => `https://rk.test${this.href}`,
      index: () => (this.navigationApi ? this.index : undefined),
      canGoBack: () => (this.navigationApi ? this.index > 0 : undefined),
      replay: () => this.routed.push(this.href),
    };
  }

  push(state: unknown, href: string): void {
    this.entries.splice(this.index + 1, Number.POSITIVE_INFINITY, { state, href });
    this.index += 1;
  }

  replace(state: unknown, url?: string | URL | null): void {
    const href = url
      ? new URL(String(url), "https://rk.test").pathname +
        new URL(String(url), "https://rk.test").search
      : this.href;
    this.entries[this.index] = { state: this.guard.stateToWrite(state, url), href };
  }

  go(delta: number): void {
    this.queued.push(delta);
  }

  /** navigate is the router moving to `href` (pushing) while the guard sees nothing. */
  navigate(href: string): void {
    this.push({ __NA: true, tree: href }, href);
    this.routed.push(href);
  }

  /** routerReplace is the router rewriting the current entry (a search parameter changed). */
  routerReplace(href: string): void {
    this.replace({ __NA: true, tree: href }, href);
  }

  /** settle lands every queued traversal, one popstate each, as the browser does. */
  settle(): void {
    while (this.queued.length > 0) {
      const delta = this.queued.shift() as number;
      const target = this.index + delta;
      if (delta === 0 || target < 0 || target >= this.entries.length) continue;
      this.index = target;
      if (this.guard.popState(this.state) === "pass") this.routed.push(this.href);
    }
  }

  /** userBack is the browser's Back button. */
  userBack(): void {
    this.go(-1);
    this.settle();
  }

  userForward(): void {
    this.go(1);
    this.settle();
  }

  hrefs(): string[] {
    return this.entries.map((e) => e.href);
  }
}

let browser: FakeBrowser;

function makeGuard(entries: string[]): FakeBrowser {
  const b = new FakeBrowser(entries);
  b.guard = new HistoryGuard(
    b.host(),
    (q) => b.questions.push(q),
    () => {
      b.settled += 1;
    },
  );
  return b;
}

describe("HistoryGuard", () => {
  beforeEach(() => {
    browser = makeGuard(["/plans", "/plans/7"]);
  });

  it("asks when Back would leave a dirty page; staying keeps the page and asks again next time", () => {
    browser.guard.arm();
    // Several edits: one guard entry.
    browser.guard.arm();
    browser.guard.arm();
    expect(browser.hrefs()).toEqual(["/plans", "/plans/7", "/plans/7"]);

    browser.userBack();
    expect(browser.questions).toHaveLength(1);
    expect(browser.routed).toEqual([]);
    (browser.questions[0] as LeaveQuestion).stay();
    browser.settle();
    expect(browser.index).toBe(2);
    expect(browser.routed).toEqual([]);

    browser.userBack();
    expect(browser.questions).toHaveLength(2);
    (browser.questions[1] as LeaveQuestion).leave();
    expect(browser.guard.leaving).toBe(true);
    browser.settle();
    expect(browser.href).toBe("/plans");
    expect(browser.routed).toEqual(["/plans"]);
  });

  it("stays without the Navigation API too, by going forward one entry", () => {
    browser.navigationApi = false;
    browser.guard.arm();
    browser.userBack();
    (browser.questions[0] as LeaveQuestion).stay();
    browser.settle();
    expect(browser.index).toBe(2);
    browser.userBack();
    expect(browser.questions).toHaveLength(2);
  });

  it("leaves no entry behind once the page is saved: one Back leaves it", () => {
    browser.guard.arm();
    expect(browser.guard.dropping).toBe(false);
    browser.guard.disarm();
    expect(browser.guard.dropping).toBe(true);
    browser.settle();
    expect(browser.guard.dropping).toBe(false);
    expect(browser.index).toBe(1);
    expect(browser.routed).toEqual([]);
    browser.userBack();
    expect(browser.href).toBe("/plans");
    expect(browser.routed).toEqual(["/plans"]);
    expect(browser.questions).toHaveLength(0);
  });

  // Regression: Back pressed as a save landed asked about changes that were saved by then, and
  // once the question went away the page stayed, the editor two Backs from the list.
  it("a save landing while Back's question is open lets Back go on, with nothing to ask", () => {
    browser.guard.arm();
    browser.userBack();
    expect(browser.questions).toHaveLength(1);
    browser.guard.disarm();
    expect(browser.settled).toBe(1);
    browser.settle();
    expect(browser.href).toBe("/plans");
    expect(browser.routed).toEqual(["/plans"]);
    // The old question's buttons do nothing now.
    (browser.questions[0] as LeaveQuestion).stay();
    browser.settle();
    expect(browser.href).toBe("/plans");
  });

  it("a save landing while the question of a jump of several is open shows where the browser is", () => {
    browser = makeGuard(["/overview", "/plans", "/plans/7"]);
    browser.guard.arm();
    browser.userBack();
    browser.userBack();
    browser.guard.disarm();
    browser.settle();
    expect(browser.href).toBe("/plans");
    expect(browser.routed).toEqual(["/plans"]);
  });

  it("edited again while the guard comes off: the guard goes back on", () => {
    browser.guard.arm();
    browser.guard.disarm();
    browser.guard.arm();
    browser.settle();
    expect(browser.hrefs()).toEqual(["/plans", "/plans/7", "/plans/7"]);
    expect(browser.index).toBe(2);
    browser.userBack();
    expect(browser.questions).toHaveLength(1);
  });

  it("keeps knowing its entry when the router rewrites it, and the base takes the new address", () => {
    browser.guard.arm();
    browser.routerReplace("/plans/7?range=1h");
    expect((browser.state as Record<string, unknown>)[HISTORY_MARK]).toMatchObject({
      role: "guard",
    });
    browser.guard.disarm();
    browser.settle();
    expect(browser.hrefs().slice(0, 2)).toEqual(["/plans", "/plans/7?range=1h"]);
    expect(browser.index).toBe(1);
    expect((browser.state as Record<string, unknown>)[HISTORY_MARK]).toBeUndefined();
    expect((browser.state as Record<string, unknown>).tree).toBe("/plans/7?range=1h");
  });

  // Regression: a link clicked just after saving crossed the guard entry's step back, and the
  // page landed on the editor's address again.
  it("a navigation given while the guard entry comes off waits for it", () => {
    browser.guard.arm();
    browser.guard.disarm();
    browser.guard.dropThen(() => browser.navigate("/customers"));
    expect(browser.href).toBe("/plans/7");
    browser.settle();
    expect(browser.href).toBe("/customers");
    expect(browser.hrefs()).toEqual(["/plans", "/plans/7", "/customers"]);
    browser.userBack();
    expect(browser.href).toBe("/plans/7");
    expect(browser.questions).toHaveLength(0);
  });

  it("takes the guard entry off before the page's own navigation, so Back returns to the page once", () => {
    browser.guard.arm();
    browser.guard.dropThen(() => browser.navigate("/customers"));
    browser.settle();
    expect(browser.hrefs()).toEqual(["/plans", "/plans/7", "/customers"]);
    browser.userBack();
    expect(browser.href).toBe("/plans/7");
    expect(browser.questions).toHaveLength(0);
  });

  it("closes the question when the operator goes Forward to the page by itself", () => {
    browser.guard.arm();
    browser.userBack();
    browser.userForward();
    expect(browser.settled).toBe(1);
    expect(browser.routed).toEqual([]);
    // The old question's buttons do nothing now.
    (browser.questions[0] as LeaveQuestion).leave();
    browser.settle();
    expect(browser.index).toBe(2);
    expect(browser.guard.leaving).toBe(false);
  });

  it("after two steps back while asked, leaving lets the router show where the browser is", () => {
    browser = makeGuard(["/overview", "/plans", "/plans/7"]);
    browser.guard.arm();
    browser.userBack();
    browser.userBack();
    expect(browser.questions).toHaveLength(1);
    expect(browser.href).toBe("/plans");
    (browser.questions[0] as LeaveQuestion).leave();
    browser.settle();
    expect(browser.routed).toEqual(["/plans"]);
    expect(browser.href).toBe("/plans");
  });

  it("after two steps back while asked, staying returns to the page", () => {
    browser = makeGuard(["/overview", "/plans", "/plans/7"]);
    browser.guard.arm();
    browser.userBack();
    browser.userBack();
    (browser.questions[0] as LeaveQuestion).stay();
    browser.settle();
    expect(browser.index).toBe(3);
    expect(browser.routed).toEqual([]);
  });

  it("with nothing before the page, leaving by Back stays put (Back could not have left)", () => {
    browser = makeGuard(["/plans/7"]);
    browser.guard.arm();
    browser.userBack();
    (browser.questions[0] as LeaveQuestion).leave();
    browser.settle();
    expect(browser.index).toBe(1);
    expect(browser.guard.leaving).toBe(false);
  });

  it("takes off a guard entry left by a reload", () => {
    browser.guard.arm();
    // Reloaded: a new guard on the same history.
    const reloaded = makeGuard([]);
    reloaded.entries = structuredClone(browser.entries);
    reloaded.index = browser.index;
    reloaded.guard.start();
    reloaded.settle();
    expect(reloaded.index).toBe(1);
    expect(reloaded.routed).toEqual([]);
    reloaded.userBack();
    expect(reloaded.href).toBe("/plans");
  });

  it("reuses a guard entry of its own reached by Forward instead of stacking another", () => {
    browser.guard.arm();
    // Left by Back, then Forward twice onto the old guard, then edited again: no second copy.
    browser.userBack();
    (browser.questions[0] as LeaveQuestion).leave();
    browser.settle();
    browser.guard.disarm();
    browser.userForward();
    browser.userForward();
    expect(browser.index).toBe(2);
    browser.guard.arm();
    expect(browser.hrefs()).toEqual(["/plans", "/plans/7", "/plans/7"]);
    browser.userBack();
    (browser.questions[1] as LeaveQuestion).leave();
    browser.settle();
    expect(browser.href).toBe("/plans");
  });
});
