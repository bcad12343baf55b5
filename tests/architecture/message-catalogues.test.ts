import path from "node:path";
import { getConfig } from "@lingui/conf";
import { getCatalogs } from "@lingui/cli/api";
import { formatter } from "@lingui/format-po";
import fs from "node:fs";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * A message written in the code but missing from the catalogues would show its bare id in production (the bundles
 * carry ids, not English): the English catalogue must hold exactly the messages the code has. `npm run i18n:extract`
 * brings it up to date.
 */
describe("message catalogues", () => {
  it("hold every message the code writes, and no other", async () => {
    const config = getConfig({ cwd: root });
    const [catalog] = await getCatalogs(config);
    const collected = await catalog?.collect();
    expect(collected).toBeDefined();
    const inCode = Object.values(collected ?? {})
      .map((message) => message.message ?? "")
      .sort();
    const file = path.join(root, "app/locales/en/messages.po");
    const parsed = await formatter().parse(fs.readFileSync(file, "utf8"), {
      locale: "en",
      sourceLocale: "en",
      filename: file,
    });
    const inCatalogue = Object.values(parsed)
      .filter((message) => !message.obsolete)
      .map((message) => message.message ?? "")
      .sort();
    expect(inCatalogue, "app/locales/en/messages.po is behind the code: run npm run i18n:extract").toEqual(inCode);
  }, 60_000);
});
