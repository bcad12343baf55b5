import { formatHex, parse, wcagContrast } from "culori";
import type { Theme, ThemeColourKey } from "./theme.content";

type Rgb = { mode: "rgb"; r: number; g: number; b: number };

/**
 * The roles app.css derives from two theme colours with `color-mix(in srgb, a p%, b)`; contrast.test.ts reads app.css
 * and fails when the two disagree, so the check below judges exactly the colours pages paint.
 */
export const DERIVED_ROLES = {
  soft: ["text", 61, "mutedText"],
  link: ["accent", 47, "text"],
  focus: ["accent", 47, "text"],
  "accent-soft": ["accent", 21, "text"],
  "accent-hover": ["accent", 77, "text"],
  "accent-strong": ["accent", 63, "background"],
  "success-soft": ["success", 50, "text"],
  "warning-soft": ["warning", 50, "text"],
  "danger-soft": ["danger", 50, "text"],
} as const satisfies Record<string, readonly [ThemeColourKey, number, ThemeColourKey]>;

/** A theme colour as 8-bit sRGB hex (what the page's custom properties carry); out-of-gamut colours are clamped. */
export function toHex(colour: string): string {
  const parsed = parse(colour);
  if (!parsed) throw new Error(`not a CSS colour: ${colour}`);
  return formatHex(parsed);
}

function rgb(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16);
  return { mode: "rgb", r: ((n >> 16) & 255) / 255, g: ((n >> 8) & 255) / 255, b: (n & 255) / 255 };
}

/** `color-mix(in srgb, a p%, b)` of two opaque colours, as the browser computes it. */
export function mixHex(a: string, percent: number, b: string): string {
  const x = rgb(a);
  const y = rgb(b);
  const p = percent / 100;
  return formatHex({ mode: "rgb", r: x.r * p + y.r * (1 - p), g: x.g * p + y.g * (1 - p), b: x.b * p + y.b * (1 - p) });
}

export function derivedColour(theme: Theme, role: keyof typeof DERIVED_ROLES): string {
  const [a, percent, b] = DERIVED_ROLES[role];
  return mixHex(toHex(theme.colors[a]), percent, toHex(theme.colors[b]));
}

export function contrastRatio(a: string, b: string): number {
  return wcagContrast(a, b);
}

/** WCAG 2.2 AA: body text 4.5:1; large text, the parts of a control and the focus ring 3:1. */
const TEXT = 4.5;
const NON_TEXT = 3;

interface ColourPair {
  name: string;
  colour: string;
  on: string;
  onColour: string;
  needs: number;
}

/** Every pair of colours the pages put on each other, and what it needs. */
export function themeColourPairs(theme: Theme): ColourPair[] {
  const c = Object.fromEntries(Object.entries(theme.colors).map(([key, value]) => [key, toHex(value)])) as Record<
    ThemeColourKey,
    string
  >;
  const link = derivedColour(theme, "link");
  const focus = derivedColour(theme, "focus");
  const pairs: ColourPair[] = [];
  const grounds = [
    ["background", c.background],
    ["surface", c.surface],
  ] as const;
  for (const [groundName, ground] of grounds) {
    pairs.push(
      { name: `text ${c.text}`, colour: c.text, on: groundName, onColour: ground, needs: TEXT },
      { name: `mutedText ${c.mutedText}`, colour: c.mutedText, on: groundName, onColour: ground, needs: TEXT },
      { name: `accent as a link ${link}`, colour: link, on: groundName, onColour: ground, needs: TEXT },
      { name: `accent as a button ${c.accent}`, colour: c.accent, on: groundName, onColour: ground, needs: NON_TEXT },
      { name: `focus ring ${focus}`, colour: focus, on: groundName, onColour: ground, needs: NON_TEXT },
    );
    for (const status of ["success", "warning", "danger"] as const)
      pairs.push({
        name: `${status} ${c[status]}`,
        colour: c[status],
        on: groundName,
        onColour: ground,
        needs: NON_TEXT,
      });
  }
  pairs.push(
    { name: `accentText ${c.accentText}`, colour: c.accentText, on: "accent", onColour: c.accent, needs: TEXT },
    {
      name: `accentText ${c.accentText}`,
      colour: c.accentText,
      on: "accent on hover",
      onColour: derivedColour(theme, "accent-hover"),
      needs: TEXT,
    },
    {
      name: `text ${c.text}`,
      colour: c.text,
      on: "the visitor's chat bubble",
      onColour: derivedColour(theme, "accent-strong"),
      needs: TEXT,
    },
    { name: `text ${c.text}`, colour: c.text, on: "border", onColour: c.border, needs: TEXT },
  );
  // A badge is the status colour at 15% over the surface, its text the status colour half mixed with the text colour.
  for (const status of ["success", "warning", "danger"] as const) {
    const badge = mixHex(c[status], 15, c.surface);
    const text = derivedColour(theme, `${status}-soft`);
    pairs.push({ name: `${status} badge text ${text}`, colour: text, on: `its badge`, onColour: badge, needs: TEXT });
  }
  const accentBadge = mixHex(c.accent, 15, c.surface);
  const accentSoft = derivedColour(theme, "accent-soft");
  pairs.push({
    name: `accent badge text ${accentSoft}`,
    colour: accentSoft,
    on: "its badge",
    onColour: accentBadge,
    needs: TEXT,
  });
  return pairs;
}

/** One line per pair under AA: `theme.json: mutedText #8a8f98 on surface #9aa0a6 has contrast 1.3:1, needs 4.5:1`. */
export function themeContrastProblems(theme: Theme): string[] {
  return themeColourPairs(theme).flatMap((pair) => {
    const ratio = contrastRatio(pair.colour, pair.onColour);
    if (ratio >= pair.needs) return [];
    return [
      `theme.json: ${pair.name} on ${pair.on} ${pair.onColour} has contrast ${floorTenth(ratio)}:1, needs ${pair.needs}:1`,
    ];
  });
}

// Rounded down, so a refused pair never reads as if it met the bar (4.48 is "4.4", not "4.5").
function floorTenth(ratio: number): string {
  return (Math.floor(ratio * 10) / 10).toFixed(1);
}
