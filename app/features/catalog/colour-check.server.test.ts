import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { themeSchema } from "~/features/theme/theme.content";
import type { Product } from "./catalog.content";
import { readsOnTheme, withReadableColours } from "./colour-check.server";

const dark = themeSchema.parse(JSON.parse(fs.readFileSync(path.resolve("content/theme.json"), "utf8")));
const light = themeSchema.parse(JSON.parse(fs.readFileSync(path.resolve("docs/themes/light.theme.json"), "utf8")));

describe("the owner's colours against the theme (WCAG AA, 4.5:1 for small text)", () => {
  it("keeps a colour that reads on the theme's surface and background, drops one that does not", () => {
    expect(readsOnTheme("#22c55e", dark)).toBe(true);
    expect(readsOnTheme("#1e3a8a", dark)).toBe(false);
    expect(readsOnTheme("#1e3a8a", light)).toBe(true);
    expect(readsOnTheme("#22c55e", light)).toBe(false);
    expect(readsOnTheme("not a colour", dark)).toBe(false);
  });

  it("falls a failing badge or status colour back to the theme's role colour (the colour is dropped)", () => {
    const product = {
      badges: ["Plain", { label: "Good", color: "#22c55e" }, { label: "Bad", color: "#1e293b" }],
      statusLine: { text: "Undetected", color: "#0f172a" },
    } as unknown as Product;
    const [checked] = withReadableColours([product], dark);
    expect(checked?.badges).toEqual(["Plain", { label: "Good", color: "#22c55e" }, { label: "Bad" }]);
    expect(checked?.statusLine).toEqual({ text: "Undetected" });
  });
});
