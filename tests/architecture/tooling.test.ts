import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What keeps the code in one shape: `npm run lint` (and the lint step of `npm test`) runs Biome's check, which fails
// on unformatted code only while the formatter is on.

const ROOT = path.resolve(import.meta.dirname, "../..");
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), "utf8"));

describe("tooling", () => {
  it("npm run lint is Biome's check, with the formatter on at a line width of 120", () => {
    expect(readJson("package.json").scripts.lint).toBe("biome check .");
    expect(readJson("biome.json").formatter).toMatchObject({ enabled: true, lineWidth: 120 });
  });

  it("npm test lints the whole tree the same way", () => {
    expect(fs.readFileSync(path.join(ROOT, "scripts/test.mjs"), "utf8")).toContain(
      'await step("lint", bin("biome"), ["check", "."]);',
    );
  });
});
