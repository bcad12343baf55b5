import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routeCheckPairs, routeVisits } from "../support/route-sweep";

// The route sweeps were merged into one visit per route (issue 40): every (server, route, check) they covered before
// (route-checks.before.txt, written from the specs of faaee03) must still be covered, and each server's visits run.
const ROOT = path.resolve(import.meta.dirname, "../..");
const before = fs
  .readFileSync(path.join(import.meta.dirname, "route-checks.before.txt"), "utf8")
  .split("\n")
  .filter((line) => line !== "");

describe("the route sweeps' coverage", () => {
  it("keeps every (route, check) pair the sweeps covered before they were merged", () => {
    const now = new Set(routeCheckPairs());
    expect(before.length).toBeGreaterThan(500);
    expect(before.filter((pair) => !now.has(pair))).toEqual([]);
  });

  it("visits each route of a server once", () => {
    for (const server of ["shared", "light-theme"] as const) {
      const paths = routeVisits(server).map((visit) => visit.path);
      expect(paths.filter((p, i) => paths.indexOf(p) !== i)).toEqual([]);
    }
  });

  it("runs each server's visits in an end-to-end spec, and no spec sweeps the routes on its own", () => {
    const specs = fs.readdirSync(path.join(ROOT, "tests/e2e")).filter((f) => f.endsWith(".spec.ts"));
    const source = (file: string) => fs.readFileSync(path.join(ROOT, "tests/e2e", file), "utf8");
    for (const server of ["shared", "light-theme"])
      expect(specs.filter((file) => source(file).includes(`declareRouteSweep(routeVisits("${server}")`))).toHaveLength(
        1,
      );
    // A loop over every page that opens each in the browser belongs in the sweep, not beside it.
    const ownSweeps = specs.filter((file) =>
      /for \(const \w+ of (allPagePaths|englishPagePaths|MAIN_ENGLISH_PATHS|MAIN_ROUTES)\(?\)?[^)]*\)\s*\{\s*(test\(|await page\.goto)/.test(
        source(file),
      ),
    );
    expect(ownSweeps).toEqual([]);
  });
});
