import { toHex } from "./contrast";
import { THEME_COLOUR_KEYS, type Theme } from "./theme.content";

/** Where the shop serves each file the theme names (`brand/logo.svg` → `/brand/logo-<hash>.svg`). */
export type BrandUrls = Record<string, string>;

const FONT_FORMATS: Record<string, string> = { woff2: "woff2", woff: "woff", ttf: "truetype", otf: "opentype" };

const propertyName = (key: string) => `--theme-${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/**
 * The theme as the page's custom properties (read by app.css's `@theme`), and its font faces: a few hundred bytes that
 * go first in the inline stylesheet, so a restart with another theme.json restyles every page without a build.
 */
export function themeStylesheet(theme: Theme, urls: BrandUrls): string {
  const declarations = [
    `color-scheme:${theme.colorScheme}`,
    ...THEME_COLOUR_KEYS.map((key) => `${propertyName(key)}:${toHex(theme.colors[key])}`),
    `--theme-radius:${theme.radius}`,
  ];
  // `optional`: a font that is not there by the first paint (it is preloaded) waits for the next page, so text never
  // reflows under the reader (CLS 0).
  const faces: string[] = [];
  if (theme.font) {
    // app.css follows it with the system stack.
    declarations.push(`--theme-font:"${theme.font.family}"`);
    for (const file of theme.font.files) {
      const extension = file.src.slice(file.src.lastIndexOf(".") + 1);
      faces.push(
        `@font-face{font-family:"${theme.font.family}";src:url(${urls[file.src]}) format("${FONT_FORMATS[extension]}");font-weight:${file.weight}${file.style === "italic" ? ";font-style:italic" : ""};font-display:optional}`,
      );
    }
  }
  return `${faces.join("")}:root{${declarations.join(";")}}`;
}
