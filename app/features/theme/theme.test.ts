import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { ContentError, parseContent } from "~/features/content/content";
import { missingBrandFiles, readBrandAssets } from "./brand-assets.server";
import { DERIVED_ROLES, contrastRatio, mixHex, themeContrastProblems, toHex } from "./contrast";
import { type Theme, themeSchema } from "./theme.content";
import { themeStylesheet } from "./theme-stylesheet";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const shipped = JSON.parse(fs.readFileSync(path.join(ROOT, "content/theme.json"), "utf8"));
const light = JSON.parse(fs.readFileSync(path.join(ROOT, "docs/themes/light.theme.json"), "utf8"));

const parseTheme = (data: unknown) => parseContent("content/theme.json", themeSchema, data) as Theme;
const withColours = (colors: Partial<Theme["colors"]>): Theme => ({
  ...shipped,
  colors: { ...shipped.colors, ...colors },
});

describe("theme.json schema", () => {
  it("docs/theming.md shows the light theme exactly as docs/themes/light.theme.json holds it", () => {
    const doc = fs.readFileSync(path.join(ROOT, "docs/theming.md"), "utf8");
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
    expect(blocks.map((block) => JSON.parse(block))).toContainEqual(light);
  });

  it("accepts the shipped theme and the light theme of docs/theming.md", () => {
    expect(parseTheme(shipped).colorScheme).toBe("dark");
    expect(parseTheme(light).colorScheme).toBe("light");
  });

  it("takes any CSS colour culori reads: hex, rgb(), hsl(), oklch()", () => {
    const theme = parseTheme(
      withColours({ background: "rgb(2 6 23)", surface: "hsl(222 47% 11%)", accent: "oklch(68.5% 0.169 237.3)" }),
    );
    expect(toHex(theme.colors.background)).toBe("#020617");
    expect(toHex(theme.colors.surface)).toBe("#0f1729");
    expect(toHex(theme.colors.accent)).toBe("#00a6f4");
  });

  it("names the key of a bad value, one line each", () => {
    const error = () =>
      parseTheme({
        ...shipped,
        colorScheme: "sepia",
        colors: { ...shipped.colors, mutedText: "greyish", accent: "rgb(0 0 0 / 50%)" },
        radius: "large",
        logo: { src: "../secret.svg", alt: "", width: 0, height: 32 },
      });
    expect(error).toThrow(ContentError);
    expect(() => error()).toThrow(
      [
        "content/theme.json: colorScheme: expected dark or light",
        "content/theme.json: colors.mutedText: expected an opaque CSS colour (#rrggbb, rgb(), hsl(), oklch(), …)",
        "content/theme.json: colors.accent: expected an opaque CSS colour (#rrggbb, rgb(), hsl(), oklch(), …)",
        "content/theme.json: radius: expected a length such as 0.75rem or 12px",
        "content/theme.json: logo.src: expected a file in content/brand/ ending in .svg, .png, .webp, .avif, .jpg, .jpeg",
        "content/theme.json: logo.alt: expected a non-empty string",
        "content/theme.json: logo.width: Too small: expected number to be >0",
      ].join("\n"),
    );
  });

  it("refuses keys it does not know, so a typo is not silently ignored", () => {
    expect(() => parseTheme({ ...shipped, colors: { ...shipped.colors, backgroud: "#000" } })).toThrow(
      /colors: Unrecognized key: "backgroud"/,
    );
  });
});

describe("contrast check", () => {
  it("passes the shipped theme and the light theme", () => {
    expect(themeContrastProblems(parseTheme(shipped))).toEqual([]);
    expect(themeContrastProblems(parseTheme(light))).toEqual([]);
  });

  it("computes WCAG 2.2 ratios", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#8a8f98", "#9aa0a6")).toBeCloseTo(1.23, 2);
  });

  it("names each refused pair in one line, as the issue's example reads", () => {
    expect(themeContrastProblems(withColours({ mutedText: "#8a8f98", surface: "#9aa0a6" }))).toContain(
      "theme.json: mutedText #8a8f98 on surface #9aa0a6 has contrast 1.2:1, needs 4.5:1",
    );
  });

  it("refuses body text under 4.5:1 on the background and on the surface", () => {
    const problems = themeContrastProblems(withColours({ text: "#475569" }));
    expect(problems).toContain("theme.json: text #475569 on background #020617 has contrast 2.6:1, needs 4.5:1");
    expect(problems).toContain("theme.json: text #475569 on surface #0f172a has contrast 2.3:1, needs 4.5:1");
    // Links and badge text are mixed with the text colour, so they fail with it.
    expect(problems).toContain(
      "theme.json: accent as a link #2c7ba5 on surface #0f172a has contrast 3.8:1, needs 4.5:1",
    );
  });

  it("refuses accent text that cannot be read on the accent (buttons, also on hover)", () => {
    expect(themeContrastProblems(withColours({ accentText: "#38bdf8" }))).toEqual([
      "theme.json: accentText #38bdf8 on accent #0ea5e9 has contrast 1.2:1, needs 4.5:1",
      "theme.json: accentText #38bdf8 on accent on hover #42b7ed has contrast 1.0:1, needs 4.5:1",
    ]);
  });

  it("refuses an accent that neither reads as a link nor shows as a button, and a focus ring that vanishes", () => {
    const problems = themeContrastProblems(withColours({ accent: "#0b1120", accentText: "#f1f5f9" }));
    expect(problems).toContain(
      "theme.json: accent as a button #0b1120 on background #020617 has contrast 1.0:1, needs 3:1",
    );
    expect(problems).toContain(
      "theme.json: accent as a button #0b1120 on surface #0f172a has contrast 1.0:1, needs 3:1",
    );
    expect(problems.some((line) => line.startsWith("theme.json: focus ring"))).toBe(false);
    const faint = themeContrastProblems(withColours({ accent: "#0b1120", text: "#1e293b", mutedText: "#1e293b" }));
    expect(faint.some((line) => /^theme\.json: accent as a link #\w{6} on background/.test(line))).toBe(true);
    expect(
      faint.some((line) => /^theme\.json: focus ring #\w{6} on surface #0f172a has contrast .*, needs 3:1$/.test(line)),
    ).toBe(true);
  });

  it("refuses status colours that vanish on the surface, and badge text that cannot be read on its badge", () => {
    expect(themeContrastProblems(withColours({ success: "#0f3a2a" }))).toEqual([
      "theme.json: success #0f3a2a on background #020617 has contrast 1.5:1, needs 3:1",
      "theme.json: success #0f3a2a on surface #0f172a has contrast 1.4:1, needs 3:1",
    ]);
    expect(themeContrastProblems(withColours({ danger: "#4c1d95", text: "#64748b", mutedText: "#64748b" }))).toContain(
      "theme.json: danger badge text #584990 on its badge #18183a has contrast 2.2:1, needs 4.5:1",
    );
  });

  it("rounds a ratio down, so a refused pair never reads as meeting the bar", () => {
    const [line] = themeContrastProblems(withColours({ mutedText: "#6f7a8b" }));
    expect(line).toMatch(
      /^theme\.json: mutedText #6f7a8b on (background|surface) #\w{6} has contrast 4\.\d:1, needs 4\.5:1$/,
    );
    expect(line).not.toContain("4.5:1, needs");
  });
});

describe("derived roles", () => {
  it("are mixed in app.css exactly as the check computes them", () => {
    const css = fs.readFileSync(path.join(ROOT, "app/app.css"), "utf8");
    const property = (key: string) => `var(--theme-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)})`;
    for (const [role, [a, percent, b]] of Object.entries(DERIVED_ROLES))
      expect(css, role).toContain(`--color-${role}: color-mix(in srgb, ${property(a)} ${percent}%, ${property(b)});`);
  });

  it("mix as the browser's color-mix(in srgb) does", () => {
    expect(mixHex("#f1f5f9", 61, "#94a3b8")).toBe("#cdd5e0");
    expect(mixHex("#000000", 50, "#ffffff")).toBe("#808080");
  });
});

describe("the theme's stylesheet", () => {
  it("is a handful of custom properties, at most 300 B gzip", () => {
    const css = themeStylesheet(parseTheme(shipped), {});
    expect(css).toBe(
      ":root{color-scheme:dark;--theme-background:#020617;--theme-surface:#0f172a;--theme-border:#1e293b;--theme-text:#f1f5f9;--theme-muted-text:#94a3b8;--theme-accent:#0ea5e9;--theme-accent-text:#020617;--theme-success:#34d399;--theme-warning:#fbbf24;--theme-danger:#fb7185;--theme-radius:0.75rem}",
    );
    expect(zlib.gzipSync(css).length).toBeLessThanOrEqual(300);
    expect(zlib.gzipSync(themeStylesheet(parseTheme(light), {})).length).toBeLessThanOrEqual(300);
  });

  it("declares the font's faces from the shop's own hashed URLs, and puts the family before the system stack", () => {
    const css = themeStylesheet(
      parseTheme({
        ...shipped,
        font: { family: "Inter", files: [{ src: "brand/inter-var.woff2", weight: "100 900" }] },
      }),
      { "brand/inter-var.woff2": "/brand/inter-var-abc123.woff2" },
    );
    expect(css).toContain(
      '@font-face{font-family:"Inter";src:url(/brand/inter-var-abc123.woff2) format("woff2");font-weight:100 900;font-display:optional}',
    );
    expect(css).toContain('--theme-font:"Inter"');
  });
});

describe("brand files", () => {
  it("are named by their content's hash and reported when missing", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-brand-"));
    fs.mkdirSync(path.join(dir, "brand"));
    fs.writeFileSync(path.join(dir, "brand/logo.svg"), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const theme = parseTheme({ ...shipped, logo: { src: "brand/logo.svg", alt: "Acme", width: 32, height: 32 } });
    const { urls, assets } = readBrandAssets(theme, dir);
    expect(urls["brand/logo.svg"]).toMatch(/^\/brand\/logo-[\w-]{10}\.svg$/);
    expect(assets.get(urls["brand/logo.svg"] ?? "")?.contentType).toBe("image/svg+xml");
    expect(missingBrandFiles(theme, dir)).toEqual([]);
    fs.rmSync(path.join(dir, "brand/logo.svg"));
    expect(missingBrandFiles(theme, dir)).toEqual([
      `content/theme.json: brand/logo.svg: file is missing (looked in ${dir})`,
    ]);
    fs.rmSync(dir, { recursive: true });
  });
});
