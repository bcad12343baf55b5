import fs from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { declareRouteSweep, test } from "../support/route-visit";
import { routeVisits } from "../support/route-sweep";
import { allPagePaths, sitemapPaths } from "../support/site-routes";

/**
 * Every route of every language, and of the pseudo-locale (English accented and ~40% longer, docs/i18n.md), visited
 * once on the suite's shared server: the checks of tests/support/route-sweep.ts, each a named assertion. Feature specs
 * check their own widgets in their open states.
 */
// The status page's products are named in content/status.json by the names their probes and history know them by:
// brand names, written the same in every language.
const BRAND_WORDS = (
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../content/status.json"), "utf8")) as Array<{
    name: string;
  }>
).flatMap((row) => row.name.split(/\s+/));

test.describe("every route, once", () => {
  declareRouteSweep(routeVisits("shared"), { brandWords: BRAND_WORDS });
});

test("the sweep covers every page in the sitemap", async ({ baseURL }) => {
  const covered = new Set(allPagePaths());
  expect((await sitemapPaths(baseURL ?? "")).filter((p) => !covered.has(p))).toEqual([]);
});
