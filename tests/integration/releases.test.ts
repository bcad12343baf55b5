import crypto from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "~/features/buyer-orders/sign-in";
import { createBuyerSession } from "~/features/buyer-orders/sign-in-store.server";
import { createDownloadRouter } from "~/features/releases/release-download.server";
import { createDiskStorage, ReleaseFileTooLargeError } from "~/features/releases/release-storage.server";
import { createReleasesApi } from "~/features/releases/releases.api.server";
import {
  addReleaseFile,
  createRelease,
  listReleases,
  publishedReleases,
  publishRelease,
  ReleaseError,
  yankRelease,
} from "~/features/releases/releases.server";
import { makeDataDir } from "../support/app-server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const SANDBOX = 446891;
const WEEK_VARIANT = 653003;
const LIFETIME_VARIANT = 685312;
const DAY = 86_400_000;
const LIMIT = 4;

const bytesOf = (text: string, times: number) => Buffer.from(text.repeat(times));
const sha256 = (data: Buffer) => crypto.createHash("sha256").update(data).digest("hex");
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

describe.each(dialects)("releases on %s", (dialect) => {
  let database: TestDatabase;
  let storageDir: string;
  let server: ReturnType<express.Express["listen"]>;
  let base: string;
  const storage = () => createDiskStorage(storageDir);
  const db = () => database.handle.db;
  const files = {
    old: bytesOf("old release bytes\n", 500),
    recent: bytesOf("recent release bytes\n", 700),
    beta: bytesOf("beta bytes\n", 300),
    open: bytesOf("open to anyone\n", 100),
  };
  let weekBuyer: string;
  let lifetimeBuyer: string;
  let refundedBuyer: string;
  let stranger: string;

  async function release(
    version: string,
    publishedDaysAgo: number,
    file: { name: string; data: Buffer; platform?: "windows-x86_64" | "darwin-aarch64" | "any" },
    options: { channel?: "stable" | "beta"; access?: "buyers" | "anyone" } = {},
  ) {
    const created = await createRelease(db(), {
      productId: SANDBOX,
      version,
      ...options,
      notes: { en: `Notes ${version.replace(/^v/, "")}` },
    });
    await addReleaseFile(db(), storage(), created.id, {
      platform: file.platform ?? "windows-x86_64",
      name: file.name,
      source: Readable.from([file.data]),
      maxBytes: 10_000_000,
    });
    await publishRelease(db(), SANDBOX, version, { now: daysAgo(publishedDaysAgo) });
    return created;
  }

  async function order(email: string, variantId: number, status: string, completedDaysAgo: number) {
    const at = daysAgo(completedDaysAgo).toISOString();
    await db()
      .insertInto("orders")
      .values({
        id: crypto.randomUUID(),
        provider: "demo",
        provider_invoice_id: null,
        product_id: SANDBOX,
        variant_id: variantId,
        quantity: 1,
        amount_cents: 699,
        status: status as "completed",
        created_at: at,
        completed_at: at,
        raw_event_id: null,
        buyer_email: email,
      })
      .execute();
    return createBuyerSession(db(), { email });
  }

  const get = (url: string, { session, headers = {} }: { session?: string; headers?: Record<string, string> } = {}) =>
    fetch(`${base}${url}`, {
      redirect: "manual",
      headers: { ...headers, ...(session ? { Cookie: `${SESSION_COOKIE}=${session}` } : {}) },
    });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    storageDir = makeDataDir("kestrel-releases-");
    const app = express();
    app.use("/api", createReleasesApi(db));
    app.use(createDownloadRouter({ db, storage, limit: () => LIMIT }));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    await release("1.0.0", 40, { name: "Sandbox-1.0.0-setup.exe", data: files.old });
    await release("v1.1.0", 10, { name: "Sandbox-1.1.0-setup.exe", data: files.recent });
    await release("1.2.0-beta.1", 5, { name: "Sandbox-1.2.0-beta.1-setup.exe", data: files.beta }, { channel: "beta" });
    await release(
      "1.0.1",
      30,
      { name: "Sandbox-1.0.1-any.zip", data: files.open, platform: "any" },
      { access: "anyone" },
    );
    weekBuyer = await order("week@example.com", WEEK_VARIANT, "completed", 30);
    lifetimeBuyer = await order("life@example.com", LIFETIME_VARIANT, "completed", 60);
    refundedBuyer = await order("refunded@example.com", LIFETIME_VARIANT, "refunded", 60);
    stranger = await createBuyerSession(db(), { email: "stranger@example.com" });
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await database?.drop();
    fs.rmSync(storageDir, { recursive: true, force: true });
  });

  describe("the model", () => {
    it("keeps a version once (a v prefix is the same version) and publishes a release only with a file", async () => {
      await expect(createRelease(db(), { productId: SANDBOX, version: "1.0.0" })).rejects.toThrow(
        "version 1.0.0 of this product already exists",
      );
      const draft = await createRelease(db(), { productId: SANDBOX, version: "9.9.9" });
      expect(draft.state).toBe("draft");
      await expect(publishRelease(db(), SANDBOX, "9.9.9")).rejects.toThrow(
        "a release needs a file before it is published",
      );
      expect((await publishedReleases(db(), SANDBOX)).map((r) => r.version)).not.toContain("9.9.9");
    });

    it("computes each file's size, SHA-256 and SHA-512 from the bytes it streamed", async () => {
      const [stored] = (await listReleases(db(), SANDBOX)).filter((r) => r.version === "1.1.0");
      const file = stored?.files[0];
      expect(file).toMatchObject({ size: files.recent.length, sha256: sha256(files.recent) });
      expect(file?.sha512).toBe(crypto.createHash("sha512").update(files.recent).digest("base64"));
    });

    it("a yanked release is gone from what buyers and feeds see and kept for the record", async () => {
      const created = await release("0.9.0", 50, { name: "Sandbox-0.9.0-setup.exe", data: files.old });
      expect(await yankRelease(db(), SANDBOX, "0.9.0")).toMatchObject({ state: "yanked" });
      expect((await publishedReleases(db(), SANDBOX)).map((r) => r.id)).not.toContain(created.id);
      expect((await listReleases(db(), SANDBOX)).find((r) => r.id === created.id)).toMatchObject({ state: "yanked" });
      expect((await get("/downloads/sandbox/0.9.0/Sandbox-0.9.0-setup.exe", { session: lifetimeBuyer })).status).toBe(
        404,
      );
    });

    it.each([
      ["../etc/passwd", 'expected a file name without ".."'],
      ["setup\u0000.exe", "expected a file name of letters"],
      ["a".repeat(300), "expected a file name of at most 200 characters"],
      ["setup\u202Eexe.txt", "expected a file name of letters"],
      ["dir/setup.exe", "expected a file name of letters"],
    ])("refuses the hostile file name %j and stores nothing", async (name, message) => {
      const draft = await createRelease(db(), { productId: SANDBOX, version: `7.0.${crypto.randomInt(1e6)}` });
      const before = fs.readdirSync(storageDir, { recursive: true }).length;
      await expect(
        addReleaseFile(db(), storage(), draft.id, {
          platform: "any",
          name,
          source: Readable.from([Buffer.from("x")]),
          maxBytes: 100,
        }),
      ).rejects.toThrow(ReleaseError);
      await expect(
        addReleaseFile(db(), storage(), draft.id, { platform: "any", name, source: Readable.from([]), maxBytes: 1 }),
      ).rejects.toThrow(message);
      expect(fs.readdirSync(storageDir, { recursive: true }).length).toBe(before);
      expect((await listReleases(db(), SANDBOX)).find((r) => r.id === draft.id)?.files).toEqual([]);
    });

    it("refuses a file past the limit while it streams and keeps no part of it", async () => {
      const draft = await createRelease(db(), { productId: SANDBOX, version: "8.0.0" });
      const before = fs.readdirSync(storageDir, { recursive: true }).length;
      const chunks = (function* () {
        for (let i = 0; i < 64; i++) yield Buffer.alloc(64 * 1024, i);
      })();
      await expect(
        addReleaseFile(db(), storage(), draft.id, {
          platform: "any",
          name: "big.bin",
          source: Readable.from(chunks),
          maxBytes: 1_000_000,
        }),
      ).rejects.toThrow(ReleaseFileTooLargeError);
      expect(fs.readdirSync(storageDir, { recursive: true }).length).toBe(before);
    });
  });

  describe("the download", () => {
    it("sends a signed-out visitor to /orders and back to the same file", async () => {
      const res = await get("/downloads/sandbox/1.1.0/Sandbox-1.1.0-setup.exe");
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(
        `/orders?next=${encodeURIComponent("/downloads/sandbox/1.1.0/Sandbox-1.1.0-setup.exe")}`,
      );
      const german = await get("/de/downloads/sandbox/1.1.0/Sandbox-1.1.0-setup.exe");
      expect(german.headers.get("location")).toBe(
        `/de/orders?next=${encodeURIComponent("/de/downloads/sandbox/1.1.0/Sandbox-1.1.0-setup.exe")}`,
      );
    });

    it("streams the file to a buyer whose licence covers it, as an attachment with its validators", async () => {
      const res = await get("/downloads/sandbox/1.1.0/Sandbox-1.1.0-setup.exe", { session: lifetimeBuyer });
      expect(res.status).toBe(200);
      expect(Object.fromEntries(res.headers)).toMatchObject({
        "accept-ranges": "bytes",
        "content-length": String(files.recent.length),
        "content-disposition": 'attachment; filename="Sandbox-1.1.0-setup.exe"',
        "content-type": "application/octet-stream",
        "x-content-type-options": "nosniff",
        etag: `"${sha256(files.recent).slice(0, 32)}"`,
      });
      expect(res.headers.get("last-modified")).toMatch(/GMT$/);
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(files.recent));
    });

    it("opens every release published before a one-week licence ended, and says Renew for one after", async () => {
      const before = await get("/downloads/sandbox/1.0.0/Sandbox-1.0.0-setup.exe", { session: weekBuyer });
      expect(before.status).toBe(200);
      expect(sha256(Buffer.from(await before.arrayBuffer()))).toBe(sha256(files.old));
      const after = await get("/downloads/sandbox/1.1.0/Sandbox-1.1.0-setup.exe", { session: weekBuyer });
      expect(after.status).toBe(403);
      const page = await after.text();
      expect(page).toContain("Renew to get 1.1.0");
      expect(page).toContain('href="/product/sandbox?duration=1-week"');
      expect(after.headers.get("content-disposition")).toBeNull();
    });

    it("opens nothing to a refunded order or a stranger, whom it offers the product", async () => {
      for (const session of [refundedBuyer, stranger]) {
        const res = await get("/downloads/sandbox/1.0.0/Sandbox-1.0.0-setup.exe", { session });
        expect(res.status).toBe(403);
        expect(await res.text()).toContain('<a href="/product/sandbox">Buy Kestrel Sandbox</a>');
      }
    });

    it("opens a release for anyone without a session", async () => {
      const res = await get("/downloads/sandbox/1.0.1/Sandbox-1.0.1-any.zip");
      expect(res.status).toBe(200);
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(files.open));
    });

    it("answers ranges so a download resumes, and counts a download once, not per range request", async () => {
      const buyer = await order("ranges@example.com", LIFETIME_VARIANT, "completed", 1);
      const url = "/downloads/sandbox/1.0.0/Sandbox-1.0.0-setup.exe";
      const count = async () =>
        Number(
          (
            await db()
              .selectFrom("release_downloads")
              .innerJoin("orders", "orders.id", "release_downloads.order_id")
              .select(db().fn.countAll<number | string>().as("n"))
              .where("orders.buyer_email", "=", "ranges@example.com")
              .executeTakeFirstOrThrow()
          ).n,
        );
      const first = await get(url, { session: buyer, headers: { Range: "bytes=0-99" } });
      expect(first.status).toBe(206);
      expect(first.headers.get("content-range")).toBe(`bytes 0-99/${files.old.length}`);
      expect(Buffer.from(await first.arrayBuffer())).toEqual(files.old.subarray(0, 100));
      const rest = await get(url, {
        session: buyer,
        headers: { Range: "bytes=100-", "If-Range": first.headers.get("etag") ?? "" },
      });
      expect(rest.status).toBe(206);
      expect(Buffer.from(await rest.arrayBuffer())).toEqual(files.old.subarray(100));
      expect((await get(url, { session: buyer, headers: { Range: "bytes=9000000-" } })).status).toBe(416);
      const head = await fetch(`${base}${url}`, { method: "HEAD", headers: { Cookie: `${SESSION_COOKIE}=${buyer}` } });
      expect(head.headers.get("content-length")).toBe(String(files.old.length));
      expect(await count()).toBe(1);
    });

    it(`starts at most ${LIMIT} downloads per order and day, then says when they open again`, async () => {
      const buyer = await order("limit@example.com", LIFETIME_VARIANT, "completed", 1);
      const url = "/downloads/sandbox/1.0.0/Sandbox-1.0.0-setup.exe";
      for (let i = 0; i < LIMIT; i++) {
        const res = await get(url, { session: buyer });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      const refused = await get(url, { session: buyer });
      expect(refused.status).toBe(429);
      const tomorrow = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`).getTime() + DAY;
      const opens = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(
        tomorrow,
      );
      const page = await refused.text();
      expect(page).toContain("Today&#39;s downloads for this order are used up");
      expect(page).toContain(`Downloads open again on ${opens} (UTC).`);
      expect(refused.headers.get("content-disposition")).toBeNull();
    });

    it("answers a page for people when the product, version or file is unknown or hostile", async () => {
      for (const url of [
        "/downloads/nothing/1.0.0/a.exe",
        "/downloads/sandbox/not-a-version/a.exe",
        "/downloads/sandbox/1.0.0/..%2F..%2Fstore.db",
        "/downloads/sandbox/1.0.0/a%00.exe",
        "/downloads/sandbox/1.0.0/setup%E2%80%AEexe.txt",
        `/downloads/sandbox/1.0.0/${"a".repeat(300)}`,
      ]) {
        const res = await get(url, { session: lifetimeBuyer });
        expect(res.status, url).toBe(404);
        expect(await res.text()).toContain("This download does not exist");
      }
    });
  });

  describe("the update feeds", () => {
    it("answers the latest stable in Tauri's shape, with the gated URL, cached 5 minutes", async () => {
      const res = await get("/api/releases/sandbox/latest?channel=stable&platform=windows-x86_64&current=1.0.0");
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      expect(await res.json()).toEqual({
        version: "1.1.0",
        pub_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        notes: "Notes 1.1.0",
        url: "http://localhost:3000/downloads/sandbox/1.1.0/Sandbox-1.1.0-setup.exe",
        sha256: sha256(files.recent),
        size: files.recent.length,
        signature: "",
      });
    });

    it("answers 204 when current is the latest (v prefix or not), and the beta on the beta channel", async () => {
      expect((await get("/api/releases/sandbox/latest?current=v1.1.0&platform=windows-x86_64")).status).toBe(204);
      const beta = await get("/api/releases/446891/latest?channel=beta&platform=windows-x86_64&current=1.1.0");
      expect((await beta.json()).version).toBe("1.2.0-beta.1");
      // A platform without a file of its own gets the release's file for any platform, or nothing.
      expect((await get("/api/releases/sandbox/latest?platform=darwin-aarch64")).status).toBe(200);
      expect(await (await get("/api/releases/sandbox/latest?platform=darwin-aarch64")).json()).toMatchObject({
        version: "1.0.1",
      });
    });

    it("answers electron-updater's latest.yml", async () => {
      const res = await get("/api/releases/sandbox/stable.yml");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/yaml");
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      const sha512 = crypto.createHash("sha512").update(files.recent).digest("base64");
      const url = "http://localhost:3000/downloads/sandbox/1.1.0/Sandbox-1.1.0-setup.exe";
      expect(await res.text()).toBe(
        `version: '1.1.0'\nfiles:\n  - url: '${url}'\n    sha512: '${sha512}'\n    size: ${files.recent.length}\npath: '${url}'\nsha512: '${sha512}'\nreleaseDate: '${new Date((await publishedReleases(db(), SANDBOX)).find((r) => r.version === "1.1.0")?.publishedAt ?? "").toISOString()}'\n`,
      );
      expect(await (await get("/api/releases/sandbox/beta.yml")).text()).toContain("version: '1.2.0-beta.1'");
    });

    it.each([
      ["/api/releases/sandbox/latest?channel=nightly", 400, "channel: expected stable or beta"],
      ["/api/releases/sandbox/latest?platform=amiga", 400, "platform: expected one of"],
      ["/api/releases/sandbox/latest?current=latest", 400, "current: expected a semantic version"],
      ["/api/releases/Not%20A%20Product/latest", 400, "expected a product slug or id"],
      ["/api/releases/sandbox/nightly.yml", 400, "channel: expected stable or beta"],
      ["/api/releases/nothing/latest", 404, "no such product"],
      ["/api/releases/vault/latest", 404, "no release on this channel"],
      ["/api/releases/nothing/stable.yml", 404, "no such product"],
    ])("%s answers %i {error}", async (url, status, error) => {
      const res = await get(url);
      expect(res.status).toBe(status);
      expect((await res.json()).error).toContain(error);
    });
  });
});

describe("release storage on disk", () => {
  it("keeps files under DATA_DIR/releases by the key we made", async () => {
    const dir = makeDataDir("kestrel-storage-");
    const stored = await createDiskStorage(dir).put("files/abc", Readable.from([Buffer.from("hello")]), 10);
    expect(stored).toMatchObject({ size: 5, sha256: sha256(Buffer.from("hello")) });
    expect(fs.readFileSync(path.join(dir, "releases", "files", "abc"), "utf8")).toBe("hello");
    expect(() => createDiskStorage(dir).open("../store.db")).toThrow("a storage key");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("a 1 GiB upload", () => {
  it("streams through the storage with the process's memory flat, and its checksum is the bytes'", async () => {
    const dir = makeDataDir("kestrel-big-");
    const chunk = Buffer.alloc(4 * 1024 * 1024, 7);
    const count = 256;
    const expected = crypto.createHash("sha256");
    for (let i = 0; i < count; i++) expected.update(chunk);
    let peak = 0;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < count; i++) {
          peak = Math.max(peak, process.memoryUsage().rss);
          yield chunk;
        }
      })(),
    );
    const before = process.memoryUsage().rss;
    try {
      const stored = await createDiskStorage(dir).put("files/big", source, 2048 * 1_048_576);
      expect(stored.size).toBe(count * chunk.length);
      expect(stored.sha256).toBe(expected.digest("hex"));
      // Held in memory, 1 GiB would raise the RSS by at least that; streamed, it stays within a few buffers.
      expect(peak - before).toBeLessThan(200 * 1_048_576);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
