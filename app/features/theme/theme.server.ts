import { getContent, contentDir } from "~/features/content/content.server";
import { type BrandAsset, readBrandAssets } from "./brand-assets.server";
import { toHex } from "./contrast";
import type { Theme } from "./theme.content";
import { type BrandUrls, themeStylesheet } from "./theme-stylesheet";

/** What the page's chrome shows of the theme (the root loader sends it with the layout). */
export interface BrandData {
  /** `<meta name="theme-color">`: the theme's background. */
  themeColor: string;
  logo?: { src: string; alt: string; width: number; height: number; type: string };
  /** The theme font's first file, preloaded so it is there by the first paint. */
  font?: { href: string; type: string };
}

interface ShopTheme {
  theme: Theme;
  urls: BrandUrls;
  assets: Map<string, BrandAsset>;
  css: string;
  brand: BrandData;
}

let shopTheme: ShopTheme | undefined;

/** The shop's theme (content/theme.json, validated and contrast-checked with the content), read once per process. */
export function getShopTheme(): ShopTheme {
  shopTheme ??= readShopTheme(getContent().theme, contentDir());
  return shopTheme;
}

export function readShopTheme(theme: Theme, dir: string): ShopTheme {
  const { urls, assets } = readBrandAssets(theme, dir);
  const logoUrl = theme.logo ? urls[theme.logo.src] : undefined;
  const logo = theme.logo &&
    logoUrl && {
      src: logoUrl,
      alt: theme.logo.alt,
      width: theme.logo.width,
      height: theme.logo.height,
      type: assets.get(logoUrl)?.contentType ?? "image/svg+xml",
    };
  const firstFontFile = theme.font?.files[0];
  const fontUrl = firstFontFile ? urls[firstFontFile.src] : undefined;
  const font = fontUrl ? { href: fontUrl, type: assets.get(fontUrl)?.contentType ?? "font/woff2" } : undefined;
  return {
    theme,
    urls,
    assets,
    css: themeStylesheet(theme, urls),
    brand: { themeColor: toHex(theme.colors.background), ...(logo ? { logo } : {}), ...(font ? { font } : {}) },
  };
}
