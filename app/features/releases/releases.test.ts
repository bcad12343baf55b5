import { describe, expect, it } from "vitest";
import { compareVersions, fileNameProblem, licenceCovers, licenceEnd, normaliseVersion, notesFor } from "./releases";

describe("release versions", () => {
  it("accepts semver with or without a v prefix and refuses anything else", () => {
    expect(normaliseVersion("v1.2.3")).toBe("1.2.3");
    expect(normaliseVersion("1.2.3-beta.1+build.5")).toBe("1.2.3-beta.1+build.5");
    for (const bad of ["1.2", "01.2.3", "latest", "1.2.3.4", "", "v"]) expect(normaliseVersion(bad)).toBeUndefined();
  });

  it("orders versions by semver precedence, a pre-release before its release", () => {
    const sorted = ["1.0.0", "1.0.0-beta.11", "1.0.0-alpha", "1.0.0-beta.2", "0.9.9", "1.10.0", "1.2.0", "1.0.0-rc.1"];
    expect([...sorted].sort(compareVersions)).toEqual([
      "0.9.9",
      "1.0.0-alpha",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
      "1.2.0",
      "1.10.0",
    ]);
    expect(compareVersions("1.0.0+a", "1.0.0+b")).toBe(0);
  });
});

describe("release file names", () => {
  it("accepts installer names and refuses paths, NUL, control and direction characters and 300 characters", () => {
    expect(fileNameProblem("Kestrel Vault 3.4.2 x64-setup.exe")).toBeUndefined();
    expect(fileNameProblem("../etc/passwd")).toBe('expected a file name without ".."');
    expect(fileNameProblem("a/b.exe")).toMatch(/^expected a file name of letters/);
    expect(fileNameProblem("a\\b.exe")).toMatch(/^expected a file name of letters/);
    expect(fileNameProblem("a\u0000.exe")).toMatch(/^expected a file name of letters/);
    expect(fileNameProblem("setup\u202Eexe.txt")).toMatch(/^expected a file name of letters/);
    expect(fileNameProblem("x".repeat(300))).toBe("expected a file name of at most 200 characters");
    expect(fileNameProblem(".hidden")).toMatch(/^expected a file name of letters/);
  });
});

describe("the licence window", () => {
  const completed = "2026-10-01T10:00:00.000Z";

  it("ends the duration's days after completion; lifetime never ends; null is a length we cannot tell", () => {
    expect(licenceEnd(completed, 7)).toEqual({ kind: "ends", at: "2026-10-08T10:00:00.000Z" });
    expect(licenceEnd(completed, 0)).toEqual({ kind: "lifetime" });
    expect(licenceEnd(completed, undefined)).toEqual({ kind: "lifetime" });
    expect(licenceEnd(completed, null)).toEqual({ kind: "unknown" });
  });

  it("covers every release published before the end, older ones included, and none after", () => {
    const week = licenceEnd(completed, 7);
    expect(licenceCovers(week, completed, "2025-01-01T00:00:00.000Z")).toBe(true);
    expect(licenceCovers(week, completed, "2026-10-08T09:59:59.999Z")).toBe(true);
    expect(licenceCovers(week, completed, "2026-10-08T10:00:00.000Z")).toBe(false);
    expect(licenceCovers({ kind: "lifetime" }, completed, "2099-01-01T00:00:00.000Z")).toBe(true);
    expect(licenceCovers({ kind: "unknown" }, completed, "2026-10-01T09:00:00.000Z")).toBe(true);
    expect(licenceCovers({ kind: "unknown" }, completed, "2026-10-02T00:00:00.000Z")).toBe(false);
  });
});

describe("release notes", () => {
  it("are the page's language's, else English", () => {
    expect(notesFor({ en: "English", de: "Deutsch" }, "de")).toBe("Deutsch");
    expect(notesFor({ en: "English" }, "pt-br")).toBe("English");
    expect(notesFor({}, "de")).toBe("");
  });
});
