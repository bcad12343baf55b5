import { describe, expect, it } from "vitest";
import { inlinableCss } from "./inline-stylesheet.build";

const tailwindShape = [
  "@layer properties{@supports (((-webkit-hyphens:none)) and (not (margin-trim:inline))) or ((-moz-orient:inline) and (not (color:rgb(from red r g b)))){*,:before,:after,::backdrop{--tw-translate-x:0;--tw-shadow:0 0 #0000}}}",
  "@layer utilities{.transition{transition-property:color,background-color,--tw-gradient-from,--tw-gradient-to,opacity;transition-duration:.15s}.only-vars{transition-property:--tw-a}}",
  '@property --tw-translate-x{syntax:"*";inherits:false;initial-value:0}',
  '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}',
].join("");

describe("inlinableCss", () => {
  it("turns @property registrations into Tailwind's own unconditional defaults", () => {
    expect(inlinableCss(tailwindShape)).toBe(
      [
        "@layer properties{*,:before,:after,::backdrop{--tw-translate-x:0;--tw-shadow:0 0 #0000}}",
        "@layer utilities{.transition{transition-property:color,background-color,opacity;transition-duration:.15s}.only-vars{transition-property:none}}",
      ].join(""),
    );
  });

  it("leaves a stylesheet without registrations as it was", () => {
    const plain = "@layer base{a{color:red}}@supports (display:grid){.g{display:grid}}.t{transition-property:opacity}";
    expect(inlinableCss(plain)).toBe(plain);
  });
});
