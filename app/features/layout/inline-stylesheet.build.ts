import { transform } from "lightningcss";
import type { Plugin } from "vite";

/**
 * Tailwind registers its `--tw-*` properties with `@property` and ships universal-selector defaults, behind an
 * `@supports`, for browsers without it. The Nu Html Checker rejects `@property` (and `margin-trim` in that
 * condition) inside `<style>`, so the inline copy keeps only the defaults, unconditionally: the same values, and
 * the properties still do not inherit because every element sets its own. Unregistered custom properties cannot
 * be transitioned, so they also leave `transition-property` lists (where the checker rejects them too).
 */
export function inlinableCss(css: string): string {
  const { code } = transform({
    filename: "app.css",
    code: Buffer.from(css),
    minify: true,
    visitor: {
      Rule: {
        property: () => [],
        supports: (rule) =>
          JSON.stringify(rule.value.condition).includes('"margin-trim"') ? rule.value.rules : undefined,
      },
      Declaration: {
        "transition-property"(declaration) {
          // A value lightningcss could not parse (a var()) is left as written.
          if (declaration.property !== "transition-property") return declaration;
          const kept = declaration.value.filter((name) => !name.property.startsWith("--"));
          return { ...declaration, value: kept.length > 0 ? kept : [{ property: "none" }] };
        },
      },
    },
  });
  return code.toString();
}

/** Makes the stylesheet pages inline (`app.css?inline`, docs/decisions/011) inlinable once, at build time. */
export function inlineStylesheet(): Plugin {
  return {
    name: "kestrel:inline-stylesheet",
    transform(code, id) {
      if (!/[\\/]app\.css\?(?:.*&)?inline\b/.test(id)) return undefined;
      return { code: inlinableCss(code), map: null };
    },
  };
}
