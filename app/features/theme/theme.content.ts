import { parse } from "culori";
import { z } from "zod";
import { nonEmpty } from "~/features/content/content";

// The shop's look (content/theme.json, docs/theming.md): colours any CSS colour syntax culori reads, files under content/brand/.

const cssColour = z.string().refine(
  (value) => {
    const colour = parse(value);
    return colour !== undefined && (colour.alpha === undefined || colour.alpha === 1);
  },
  { message: "expected an opaque CSS colour (#rrggbb, rgb(), hsl(), oklch(), …)" },
);

const brandFile = (extensions: readonly string[]) =>
  z.string().regex(new RegExp(`^brand/[A-Za-z0-9][A-Za-z0-9._-]*\\.(${extensions.join("|")})$`), {
    message: `expected a file in content/brand/ ending in .${extensions.join(", .")}`,
  });

export const LOGO_EXTENSIONS = ["svg", "png", "webp", "avif", "jpg", "jpeg"] as const;
export const FONT_EXTENSIONS = ["woff2", "woff", "ttf", "otf"] as const;

export const THEME_COLOUR_KEYS = [
  "background",
  "surface",
  "border",
  "text",
  "mutedText",
  "accent",
  "accentText",
  "success",
  "warning",
  "danger",
] as const;
export type ThemeColourKey = (typeof THEME_COLOUR_KEYS)[number];

export const themeSchema = z.strictObject({
  colorScheme: z.enum(["dark", "light"], { message: "expected dark or light" }),
  colors: z.strictObject(
    Object.fromEntries(THEME_COLOUR_KEYS.map((key) => [key, cssColour])) as Record<ThemeColourKey, typeof cssColour>,
  ),
  radius: z.string().regex(/^(0|\d*\.?\d+(rem|px|em))$/, { message: "expected a length such as 0.75rem or 12px" }),
  logo: z
    .strictObject({
      src: brandFile(LOGO_EXTENSIONS),
      alt: nonEmpty,
      width: z.number().int().positive(),
      height: z.number().int().positive(),
    })
    .optional(),
  font: z
    .strictObject({
      family: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, { message: "expected a font family name (letters, digits, spaces)" }),
      files: z
        .array(
          z.strictObject({
            src: brandFile(FONT_EXTENSIONS),
            weight: z.string().regex(/^\d{3}( \d{3})?$/, { message: 'expected a weight such as "400" or "100 900"' }),
            style: z.enum(["normal", "italic"]).optional(),
          }),
        )
        .min(1, { message: "expected at least one font file" }),
    })
    .optional(),
});

export type Theme = z.infer<typeof themeSchema>;
