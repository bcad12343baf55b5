import crypto from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getContent } from "~/features/content/content.server";
import { importDemoReleases } from "~/features/releases/release-seed.server";
import { createDiskStorage } from "~/features/releases/release-storage.server";
import { allPublishedReleases, yankRelease } from "~/features/releases/releases.server";
import { makeDataDir } from "../support/app-server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();

describe.each(dialects)("the demo's seed releases on %s", (dialect) => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dir = makeDataDir("kestrel-seed-");
  });
  afterAll(async () => {
    await database?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("imports the six products' releases from content/downloads.json with a real file each, once", async () => {
    const storage = createDiskStorage(dir);
    const downloads = getContent().downloads;
    expect(await importDemoReleases(database.handle.db, downloads, { storage })).toBe(6);
    const releases = await allPublishedReleases(database.handle.db);
    expect(releases.map((r) => [r.productId, r.version, r.channel]).sort()).toEqual(
      [
        [446889, "3.4.2", "stable"],
        [446891, "2.1.0", "stable"],
        [446893, "5.0.3", "stable"],
        [447089, "6.0.0-beta.2", "beta"],
        [446894, "4.2.1", "stable"],
        [447097, "2026.11.0", "stable"],
      ].sort(),
    );
    const vault = releases.find((r) => r.productId === 446889);
    expect(vault?.publishedAt).toBe("2026-11-12T00:00:00.000Z");
    expect(vault?.notes.en).toContain("- Faster unlock of large containers");
    expect(vault?.notes.de).toContain("- Schnelleres Entsperren großer Container");
    const file = vault?.files[0];
    expect(file).toMatchObject({ name: "Kestrel-Vault-3.4.2-x64-setup.exe", platform: "windows-x86_64" });
    const bytes = await new Response(storage.open(file?.storageKey ?? "") as unknown as ReadableStream).arrayBuffer();
    expect(crypto.createHash("sha256").update(Buffer.from(bytes)).digest("hex")).toBe(file?.sha256);
    expect(releases.find((r) => r.productId === 447097)?.files[0]).toMatchObject({
      name: "Preset-Packs-2026.11.0.zip",
      platform: "any",
    });

    // A restart imports nothing again: what the owner yanked stays yanked.
    await yankRelease(database.handle.db, 446889, "3.4.2");
    expect(await importDemoReleases(database.handle.db, downloads, { storage })).toBe(0);
    expect((await allPublishedReleases(database.handle.db)).map((r) => r.productId)).not.toContain(446889);
  });
});
