import { describe, expect, it } from "vitest";
import { parseDbArgs } from "@/scripts/db-args";

describe("the arguments of db:backup and db:restore", () => {
  it("take one FILE, and --force where it is allowed", () => {
    expect(parseDbArgs(["backup.db"], ["--force"])).toEqual({
      action: "run",
      file: "backup.db",
      force: false,
    });
    expect(parseDbArgs(["--force", "backup.db"], ["--force"])).toEqual({
      action: "run",
      file: "backup.db",
      force: true,
    });
    expect(parseDbArgs(["-odd-name.db"], [])).toEqual({
      action: "refuse",
      message: "Unknown option -odd-name.db",
    });
    expect(parseDbArgs(["--", "-odd-name.db"], [])).toEqual({
      action: "run",
      file: "-odd-name.db",
      force: false,
    });
  });

  it("refuse no FILE, two FILEs, an empty FILE and an unknown option, each with its reason", () => {
    expect(parseDbArgs([], ["--force"])).toEqual({
      action: "refuse",
      message: "Name the backup FILE",
    });
    expect(parseDbArgs(["a.db", "b.db"], ["--force"])).toEqual({
      action: "refuse",
      message: "One FILE only, got 2: a.db, b.db",
    });
    expect(parseDbArgs([" "], ["--force"])).toEqual({
      action: "refuse",
      message: "FILE must not be empty",
    });
    expect(parseDbArgs(["a.db", "--yes"], ["--force"])).toEqual({
      action: "refuse",
      message: "Unknown option --yes",
    });
    // db:restore takes no --force: it never deletes the database it replaces.
    expect(parseDbArgs(["a.db", "--force"], [])).toEqual({
      action: "refuse",
      message: "Unknown option --force",
    });
  });

  it("answer --help and -h with the usage", () => {
    expect(parseDbArgs(["--help"], [])).toEqual({ action: "help" });
    expect(parseDbArgs(["a.db", "-h"], ["--force"])).toEqual({ action: "help" });
  });
});
