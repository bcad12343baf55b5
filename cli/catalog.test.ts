import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { overlayFileSchema } from "~/features/catalog/catalog.content";
import { startShopSync } from "~/features/catalog/shop-sync.server";
import { createSellAuthCatalogue } from "~/features/catalog/sources/sellauth.server";
import { parseEnv, resetEnvForTests } from "~/platform/env.server";
import { MALFORMED_PRODUCT } from "../tests/fakes/shop-catalogue";
import { type ShopEmulator, startShopEmulator } from "../tests/fakes/shop-emulator";
import { createTestDatabase, type TestDatabase } from "../tests/support/databases";
import { catalogCommand } from "./catalog";
import type { CliContext } from "./cli-context";

describe("catalog CLI", () => {
  let database: TestDatabase;
  let shop: ShopEmulator;
  let stdout: string[];
  let stderr: string[];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-catalog-cli-"));
  const run = (...argv: string[]) => {
    stdout = [];
    stderr = [];
    const context: CliContext = {
      db: database.handle.db,
      products: [],
      out: (t) => stdout.push(t),
      err: (t) => stderr.push(t),
    };
    return catalogCommand(argv, context);
  };

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    shop = await startShopEmulator();
    resetEnvForTests(
      parseEnv({
        CATALOG_SOURCE: "sellauth",
        SHOP_API_BASE: shop.url,
        SHOP_ID: shop.shopId,
        SHOP_API_KEY: shop.apiKey,
        DATA_DIR: dir,
      }),
    );
  });
  afterAll(async () => {
    resetEnvForTests();
    await shop.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("says there was no sync yet before the storefront read the shop", async () => {
    expect(await run("status")).toBe(0);
    expect(stdout.join("\n")).toContain("No sync yet");
  });

  it("pulls a starter overlay from the shop, keeping an existing file unless --force", async () => {
    const out = path.join(dir, "products.json");
    expect(await run("pull", "--out", out)).toBe(0);
    expect(stdout.join("\n")).toBe(`Wrote 8 products to ${out}; 1 skipped as malformed.`);
    const overlay = overlayFileSchema.parse(JSON.parse(fs.readFileSync(out, "utf8")));
    expect(overlay.find((entry) => entry.id === 446894)).toMatchObject({
      name: "Kestrel Studio",
      category: "creator",
      description: expect.stringContaining("editing suite"),
    });
    expect(await run("pull", "--out", out)).toBe(1);
    expect(stderr.join("\n")).toContain("--force");
    expect(await run("pull", "--out", out, "--force")).toBe(0);
  });

  it("shows the last sync: when, how many products, which were skipped", async () => {
    const sync = startShopSync({
      db: database.handle.db,
      api: createSellAuthCatalogue({ apiBase: shop.url, shopId: shop.shopId, apiKey: shop.apiKey }),
      refreshMs: 300_000,
      onSnapshot: () => {},
      pollMs: 50,
    });
    await sync.firstSnapshot;
    await sync.stop();
    expect(await run("status")).toBe(0);
    const text = stdout.join("\n");
    expect(text).toMatch(/Last sync: version \d+, \d{4}-\d{2}-\d{2}T/);
    expect(text).toContain("Products: 8 from the shop, 7 listed, 1 not public; 4 feedbacks");
    expect(text).toContain(`product ${MALFORMED_PRODUCT.id}: variants[0]: price: expected a price`);
    expect(await run("status", "--json")).toBe(0);
    expect(JSON.parse(stdout.join("\n"))).toMatchObject({
      source: "sellauth",
      lastSync: { products: 8, listed: 7 },
      overlayDrift: [],
    });
  });

  it("lists overlay entries whose product or variant the shop no longer has, exiting 1", async () => {
    expect(await run("diff")).toBe(0);
    expect(stdout.join("\n")).toContain("matches a product of the shop");
    shop.catalogue.products = shop.catalogue.products.filter((p) => (p as { id: number }).id !== 446889);
    expect(await run("diff", "--live")).toBe(1);
    expect(stdout.join("\n")).toContain("product 446889 (Kestrel Vault): the shop has no such product");
  });
});
