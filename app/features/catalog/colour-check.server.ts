import { contrastRatio, mixHex, toHex } from "~/features/theme/contrast";
import type { Theme } from "~/features/theme/theme.content";
import type { Product } from "./catalog.content";

/** WCAG 2.2 AA for the small text of a badge or a status line. */
const AA_TEXT = 4.5;
/** How much of its own colour a coloured badge's background takes (`bg-(--shop-colour)/15` over the surface). */
const TINT = 15;

/**
 * Whether `colour` reads as small text on every surface the theme paints cards and pages with (its surface and its
 * background, each under the badge's own 15% tint): the same check the theme's own colours pass (theme/contrast.ts).
 */
export function readsOnTheme(colour: string, theme: Pick<Theme, "colors">): boolean {
  let hex: string;
  try {
    hex = toHex(colour);
  } catch {
    return false;
  }
  return [theme.colors.surface, theme.colors.background].every((under) => {
    const behind = mixHex(hex, TINT, toHex(under));
    return contrastRatio(hex, behind) >= AA_TEXT;
  });
}

/**
 * The products with every owner's colour that fails WCAG AA on the theme dropped: the badge or status line then
 * takes the theme's role colour. Products without colours are returned as they are (the same objects).
 */
export function withReadableColours(products: readonly Product[], theme: Pick<Theme, "colors">): Product[] {
  const verdicts = new Map<string, boolean>();
  const reads = (colour: string) => {
    let verdict = verdicts.get(colour);
    if (verdict === undefined) {
      verdict = readsOnTheme(colour, theme);
      verdicts.set(colour, verdict);
    }
    return verdict;
  };
  return products.map((product) => {
    const badgeColoured = product.badges.some((b) => typeof b !== "string" && b.color);
    if (!badgeColoured && !product.statusLine?.color) return product;
    return {
      ...product,
      badges: product.badges.map((b) => (typeof b === "string" || !b.color || reads(b.color) ? b : { label: b.label })),
      ...(product.statusLine
        ? {
            statusLine:
              product.statusLine.color && !reads(product.statusLine.color)
                ? { text: product.statusLine.text }
                : product.statusLine,
          }
        : {}),
    };
  });
}
