import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVouchPageFake, type VouchPageFake, vouchFixture, vouchPageHtml } from "../../../tests/fakes/vouch-page";
import { DEFAULT_AVATAR, EMPTY_BODY_REASON, FETCH_FAILED_REASON } from "./reviews";
import { reviewsFileSchema } from "./reviews.content";
import {
  fetchVouchPage,
  parseVouchPage,
  plainText,
  safeAvatar,
  toIsoDate,
  VOUCH_MAX_BYTES,
  VouchPageError,
} from "./vouch-page.server";

const rules = reviewsFileSchema.parse(
  JSON.parse(fs.readFileSync(path.resolve("content/reviews.json"), "utf8")),
).parseRules;
const now = new Date("2026-11-21T06:00:00Z");

describe("parseVouchPage on the fixture page", () => {
  const reviews = parseVouchPage(vouchFixture("vouch-page"), rules, { now });

  it("reads one review per card, in page order, with the reviewer after @", () => {
    expect(reviews.map((r) => r.user)).toEqual(["alice_b", "bob", "carol.dev"]);
    expect(reviews.map((r) => r.id)).toEqual(["vch_1021", "vch_1019", "vch_1003"]);
  });

  it("counts filled stars by their accent colour class", () => {
    expect(reviews.map((r) => r.rating)).toEqual([4, 5, 0]);
  });

  it("reads dates from datetime attributes and readable text, and uses today when missing", () => {
    expect(reviews.map((r) => r.date)).toEqual(["2026-11-18", "2026-11-02", "2026-11-21"]);
  });

  it("keeps text as plain text with paragraph breaks as spaces and entities decoded", () => {
    expect(reviews[0]?.comment).toBe("Fast delivery, the key worked straight away.");
    expect(reviews[1]?.comment).toBe(
      "Second purchase. Support sorted my licence transfer in ten minutes & was friendly.",
    );
  });

  it("keeps https avatars and replaces others with the local default", () => {
    expect(reviews.map((r) => r.avatar)).toEqual([
      "https://cdn.vouch.example/avatars/alice.png",
      DEFAULT_AVATAR,
      DEFAULT_AVATAR,
    ]);
  });

  it("returns no reviews for a page without cards", () => {
    expect(parseVouchPage("<html><body><p>No vouches yet</p></body></html>", rules, { now })).toEqual([]);
  });
});

describe("parseVouchPage on hostile HTML", () => {
  const reviews = parseVouchPage(vouchFixture("vouch-page-hostile"), rules, { now });

  it("lets no markup, script text or handler survive in any field", () => {
    const serialised = JSON.stringify(reviews);
    for (const needle of [
      "<",
      ">",
      "alert('xss')",
      "alert('name')",
      "onerror",
      "javascript:",
      "__pwned",
      "display:none",
    ]) {
      expect(serialised).not.toContain(needle);
    }
  });

  it("keeps the readable words, drops the script contents", () => {
    expect(reviews[0]?.user).toBe("mallory");
    expect(reviews[0]?.comment).toMatch(/^Great tool/);
    expect(reviews[0]?.comment).toContain("click me");
    expect(reviews[1]?.comment).toContain("Nice & quick");
  });

  it("never trusts javascript: or data: avatars", () => {
    expect(reviews.map((r) => r.avatar)).toEqual([DEFAULT_AVATAR, DEFAULT_AVATAR]);
  });

  it("caps the rating at 5 and only counts the exact filled class", () => {
    expect(reviews.map((r) => r.rating)).toEqual([5, 1]);
  });

  it("uses today for unreadable dates and a safe id for odd id attributes", () => {
    expect(reviews[0]?.date).toBe("2026-11-21");
    expect(reviews[0]?.id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(reviews[1]?.id).toMatch(/^v-[0-9a-f]{16}$/);
  });

  it("drops the last card of a page cut at the size cap", () => {
    const html = vouchPageHtml([
      { id: "a", user: "one", text: "complete", stars: 5 },
      { id: "b", user: "two", text: "cut off mid-sen", stars: 2 },
    ]);
    expect(parseVouchPage(html, rules, { now, truncated: true }).map((r) => r.id)).toEqual(["a"]);
  });
});

describe("sanitising helpers", () => {
  it("plainText collapses whitespace and strips tag-like text and control characters", () => {
    expect(plainText("  a\u0000b \n\t <img src=x onerror=alert(1)> c\u202E ")).toBe("ab c");
    expect(plainText("I <3 this")).toBe("I <3 this");
  });

  it("safeAvatar accepts only https: URLs without credentials", () => {
    expect(safeAvatar("https://cdn.example/a.png")).toBe("https://cdn.example/a.png");
    expect(safeAvatar("http://cdn.example/a.png")).toBe(DEFAULT_AVATAR);
    expect(safeAvatar("javascript:alert(1)")).toBe(DEFAULT_AVATAR);
    expect(safeAvatar(" JAVASCRIPT:alert(1)")).toBe(DEFAULT_AVATAR);
    expect(safeAvatar("//cdn.example/a.png")).toBe(DEFAULT_AVATAR);
    expect(safeAvatar("https://user:pw@cdn.example/a.png")).toBe(DEFAULT_AVATAR);
    expect(safeAvatar(undefined)).toBe(DEFAULT_AVATAR);
  });

  it("toIsoDate reads ISO and readable dates and rejects impossible ones", () => {
    expect(toIsoDate("2026-11-18T23:59:00Z")).toBe("2026-11-18");
    expect(toIsoDate("Nov 2, 2026")).toBe("2026-11-02");
    expect(toIsoDate("2026-02-30")).toBeNull();
    expect(toIsoDate("yesterday")).toBeNull();
    expect(toIsoDate("")).toBeNull();
  });
});

describe("fetchVouchPage against the fake vouch page", () => {
  let fake: VouchPageFake;
  beforeAll(async () => {
    fake = await startVouchPageFake();
  });
  afterAll(async () => {
    await fake.close();
  });

  it("returns the page and its ETag, and reports not-modified for a matching ETag", async () => {
    fake.set({ kind: "html", html: vouchFixture("vouch-page"), etag: '"v1"' });
    const first = await fetchVouchPage(fake.url);
    expect(first).toMatchObject({ kind: "page", etag: '"v1"', truncated: false });
    expect(await fetchVouchPage(fake.url, { etag: '"v1"' })).toEqual({ kind: "not-modified" });
  });

  it('fails with "Failed to fetch vouches" on a non-OK answer', async () => {
    fake.set({ kind: "status", status: 503 });
    await expect(fetchVouchPage(fake.url)).rejects.toMatchObject({ reason: FETCH_FAILED_REASON });
  });

  it('fails with "No content received from API" on an empty body', async () => {
    fake.set({ kind: "empty" });
    await expect(fetchVouchPage(fake.url)).rejects.toMatchObject({ reason: EMPTY_BODY_REASON });
  });

  it("gives up on a slow answer at the timeout", async () => {
    fake.set({ kind: "slow", delayMs: 5_000, html: vouchFixture("vouch-page") });
    const error = await fetchVouchPage(fake.url, { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VouchPageError);
    expect((error as VouchPageError).message).toContain("timed out");
  });

  it("stops reading a 2 MB body at the size cap and still parses what it read", async () => {
    fake.set({ kind: "huge", bytes: 2 * 1024 * 1024 });
    const result = await fetchVouchPage(fake.url, { maxBytes: 64 * 1024 });
    if (result.kind !== "page") throw new Error("expected a page");
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.html)).toBeLessThanOrEqual(64 * 1024 + 4);
    const reviews = parseVouchPage(result.html, rules, { now, truncated: true });
    expect(reviews[0]).toMatchObject({ id: "big-1", user: "bigpage", rating: 3 });
  });

  it("reads at most 1 MB of a 2 MB page by default", async () => {
    fake.set({ kind: "huge", bytes: 2 * 1024 * 1024 });
    const result = await fetchVouchPage(fake.url);
    if (result.kind !== "page") throw new Error("expected a page");
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.html)).toBeLessThanOrEqual(VOUCH_MAX_BYTES + 4);
  });

  it("fails cleanly when nothing listens", async () => {
    await expect(fetchVouchPage("http://127.0.0.1:9/none")).rejects.toMatchObject({ reason: FETCH_FAILED_REASON });
  });
});
