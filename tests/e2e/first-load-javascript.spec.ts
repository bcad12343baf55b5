import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

// Reads the client build the end-to-end server runs: which files a first visit to a page loads before it can hydrate.
const clientDir = path.join(process.env.BUILD_DIR ?? "build", "client");

interface BuildManifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
}

function readManifest(): BuildManifest {
  const file = fs.readdirSync(path.join(clientDir, "assets")).find((name) => /^manifest-.*\.js$/.test(name));
  if (!file) throw new Error(`no manifest in ${clientDir}/assets: build first`);
  const source = fs.readFileSync(path.join(clientDir, "assets", file), "utf8");
  return JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1)) as BuildManifest;
}

function firstLoadFiles(manifest: BuildManifest, routeId: string): string[] {
  const route = manifest.routes[routeId];
  const root = manifest.routes.root;
  if (!route || !root) throw new Error(`no route ${routeId} or root in the build`);
  return [
    ...new Set([
      manifest.entry.module,
      ...manifest.entry.imports,
      root.module,
      ...(root.imports ?? []),
      route.module,
      ...(route.imports ?? []),
    ]),
  ];
}

// zod's issue code for a wrong type: present in every build of zod's parser, in no code of ours.
const ZOD_MARKER = "invalid_type";

test.describe("first-load JavaScript", () => {
  for (const routeId of ["routes/home", "routes/product", "routes/reviews", "routes/purchase-success", "routes/faq"]) {
    test(`${routeId} loads no zod before it hydrates (schemas come with the first answer to read)`, () => {
      const manifest = readManifest();
      const withZod = firstLoadFiles(manifest, routeId).filter((file) =>
        fs.readFileSync(path.join(clientDir, file), "utf8").includes(ZOD_MARKER),
      );
      expect(withZod).toEqual([]);
    });
  }

  test("the lazily loaded schemas are in the build, so the check above looks at real files", () => {
    const assets = fs.readdirSync(path.join(clientDir, "assets")).filter((name) => name.endsWith(".js"));
    expect(
      assets.some((name) => fs.readFileSync(path.join(clientDir, "assets", name), "utf8").includes(ZOD_MARKER)),
    ).toBe(true);
  });
});

// The staff console (issue 34) costs the shop nothing: none of its chunks, nor the WebAuthn library, in a shop page's
// first load. Markers: the passkey endpoints the console calls, and @simplewebauthn/browser's error for a missing WebAuthn.
const CONSOLE_MARKERS = ["/api/admin/passkeys/", "WebAuthn is not supported in this browser"];

test.describe("the console stays out of the shop's first load", () => {
  for (const routeId of ["routes/home", "routes/products", "routes/product", "routes/status"]) {
    test(`${routeId} loads no console code before it hydrates`, () => {
      const manifest = readManifest();
      const files = firstLoadFiles(manifest, routeId);
      expect(files.filter((file) => /admin/.test(file))).toEqual([]);
      const withConsole = files.filter((file) => {
        const source = fs.readFileSync(path.join(clientDir, file), "utf8");
        return CONSOLE_MARKERS.some((marker) => source.includes(marker));
      });
      expect(withConsole).toEqual([]);
    });
  }

  test("the console's code and the WebAuthn library are in the build, so the check above looks at real files", () => {
    const assets = fs.readdirSync(path.join(clientDir, "assets")).filter((name) => name.endsWith(".js"));
    for (const marker of CONSOLE_MARKERS)
      expect(
        assets.some((name) => fs.readFileSync(path.join(clientDir, "assets", name), "utf8").includes(marker)),
        marker,
      ).toBe(true);
  });
});
