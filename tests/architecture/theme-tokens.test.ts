import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Components name the theme's roles (bg-surface, text-muted), never Tailwind's palette (docs/theming.md): a palette
// class would keep the demo's colour whatever content/theme.json says.

const ROOT = path.resolve(import.meta.dirname, "../..");

const PALETTE =
  "slate|gray|zinc|neutral|stone|red|orange|amber|yellow|lime|green|emerald|teal|cyan|sky|blue|indigo|violet|purple|fuchsia|pink|rose";
const COLOUR_UTILITIES =
  "bg|text|border(?:-[xytrbles])?|ring|ring-offset|divide|outline|decoration|placeholder|accent|caret|fill|stroke|from|via|to|shadow|inset-shadow|drop-shadow";
/** `bg-slate-950`, `hover:text-sky-300`, `border-emerald-500/40`, `text-white`, `shadow-black/50`, `var(--color-sky-300)`. */
const PALETTE_CLASS = new RegExp(
  `(?<![\\w-])(?:${COLOUR_UTILITIES})-(?:(?:${PALETTE})-\\d{2,3}|white|black)(?:\\/\\d+)?(?![\\w-])|--color-(?:${PALETTE})-\\d{2,3}|--color-(?:white|black)\\b`,
  "g",
);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(file);
    return /\.(tsx?|css)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe("theme tokens", () => {
  it("recognises palette classes in every form components wrote them", () => {
    const written = 'className="bg-slate-950 hover:text-sky-300 border-emerald-500/40 text-white shadow-black/50"';
    expect(written.match(PALETTE_CLASS)).toEqual([
      "bg-slate-950",
      "text-sky-300",
      "border-emerald-500/40",
      "text-white",
      "shadow-black/50",
    ]);
    expect("outline: 3px solid var(--color-sky-300);".match(PALETTE_CLASS)).toEqual(["--color-sky-300"]);
    expect('className="bg-surface text-muted border-border-strong ring-accent/40"'.match(PALETTE_CLASS)).toBeNull();
  });

  it("no file in app/ uses a Tailwind palette colour", () => {
    const found = filesUnder("app").flatMap((file) =>
      fs
        .readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (line.match(PALETTE_CLASS) ?? []).map((match) => `${file}:${i + 1}: ${match}`)),
    );
    expect(found).toEqual([]);
  });

  it("app.css drops Tailwind's palette, so a stray palette class would draw nothing", () => {
    expect(fs.readFileSync(path.join(ROOT, "app/app.css"), "utf8")).toMatch(/@theme \{\s*--color-\*: initial;/);
  });
});
