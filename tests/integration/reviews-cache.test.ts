import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_BODY_REASON, FETCH_FAILED_REASON } from "~/features/reviews/reviews";
import { reviewsFileSchema } from "~/features/reviews/reviews.content";
import { type ReviewsCacheDeps, readVouchReviews, refreshVouchReviews } from "~/features/reviews/reviews.server";
import { fetchVouchPage } from "~/features/reviews/vouch-page.server";
import { reviewsRefreshOutcomes } from "~/platform/metrics.server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";
import { startVouchPageFake, type VouchPageFake, vouchFixture, vouchPageHtml } from "../fakes/vouch-page";

const dialects = await testDialects();
const rules = reviewsFileSchema.parse(
  JSON.parse(fs.readFileSync(path.resolve("content/reviews.json"), "utf8")),
).parseRules;
const T0 = Date.parse("2026-11-21T06:00:00Z");

/** How many refreshes ended with `outcome` so far in this process (kestrel_reviews_refresh_total). */
async function refreshCount(outcome: "updated" | "unchanged" | "failed") {
  return (await reviewsRefreshOutcomes.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}
let urlCounter = 0;

describe.each(dialects)("reviews cache on %s", (dialect) => {
  let database: TestDatabase;
  let fake: VouchPageFake;
  let clockSeconds = 0;
  let url: string;
  let deps: ReviewsCacheDeps;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    fake = await startVouchPageFake();
  });
  afterAll(async () => {
    await fake.close();
    await database.drop();
  });

  /** Each test gets its own source URL (its own cache row) and starts at T0. */
  function freshSource() {
    urlCounter += 1;
    url = `${fake.url}?case=${dialect}-${urlCounter}`;
    clockSeconds = 0;
    deps = { db: database.handle.db, rules, now: () => new Date(T0 + clockSeconds * 1000) };
  }

  it("fetches on first use, caches for 60 s, and serves the cache without refetching", async () => {
    freshSource();
    fake.set({ kind: "html", html: vouchFixture("vouch-page") });
    const before = fake.requestCount();
    const first = await readVouchReviews(deps, url, { wait: true });
    expect(first?.reviews.map((r) => r.user)).toEqual(["alice_b", "bob", "carol.dev"]);
    expect(first).toMatchObject({ stale: false, fetchedAt: new Date(T0).toISOString() });
    expect(first?.error).toBeUndefined();
    clockSeconds = 59;
    const cached = await readVouchReviews(deps, url, { wait: true });
    expect(cached?.reviews).toEqual(first?.reviews);
    expect(fake.requestCount() - before).toBe(1);
  });

  it("serves the stale list at once while one refresh runs, then the new list", async () => {
    freshSource();
    fake.set({ kind: "html", html: vouchPageHtml([{ id: "old", user: "old", text: "old text", stars: 3 }]) });
    await readVouchReviews(deps, url, { wait: true });
    fake.set({
      kind: "slow",
      delayMs: 300,
      html: vouchPageHtml([{ id: "new", user: "new", text: "new text", stars: 5 }]),
    });
    clockSeconds = 61;
    const before = fake.requestCount();
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => readVouchReviews(deps, url, { wait: true })));
    for (const answer of answers) expect(answer).toMatchObject({ stale: true, reviews: [{ id: "old" }] });
    await refreshVouchReviews(deps, url);
    expect(fake.requestCount() - before).toBe(1);
    const after = await readVouchReviews(deps, url, { wait: true });
    expect(after).toMatchObject({ stale: false, reviews: [{ id: "new", rating: 5 }] });
  });

  it("keeps the last good list when a refresh fails, and reports why", async () => {
    freshSource();
    fake.set({ kind: "html", html: vouchFixture("vouch-page") });
    await readVouchReviews(deps, url, { wait: true });
    fake.set({ kind: "status", status: 500 });
    clockSeconds = 60;
    const failedBefore = await refreshCount("failed");
    await readVouchReviews(deps, url, { wait: true });
    await refreshVouchReviews(deps, url);
    expect(await refreshCount("failed")).toBe(failedBefore + 1);
    const answer = await readVouchReviews(deps, url, { wait: true });
    expect(answer?.reviews.map((r) => r.user)).toEqual(["alice_b", "bob", "carol.dev"]);
    expect(answer).toMatchObject({ stale: true, error: FETCH_FAILED_REASON });
  });

  it("does not retry a failing page before the TTL has passed since the last attempt", async () => {
    freshSource();
    fake.set({ kind: "empty" });
    const first = await readVouchReviews(deps, url, { wait: true });
    expect(first).toMatchObject({ reviews: [], error: EMPTY_BODY_REASON });
    const before = fake.requestCount();
    clockSeconds = 30;
    expect(await readVouchReviews(deps, url, { wait: true })).toMatchObject({ reviews: [], error: EMPTY_BODY_REASON });
    expect(fake.requestCount()).toBe(before);
    fake.set({ kind: "html", html: vouchFixture("vouch-page") });
    clockSeconds = 61;
    const recovered = await readVouchReviews(deps, url, { wait: true });
    expect(recovered?.reviews).toHaveLength(3);
    expect(recovered?.error).toBeUndefined();
  });

  it("answers null without waiting when nothing is cached and the caller cannot wait", async () => {
    freshSource();
    fake.set({ kind: "slow", delayMs: 200, html: vouchFixture("vouch-page") });
    expect(await readVouchReviews(deps, url, { wait: false })).toBeNull();
    await refreshVouchReviews(deps, url);
    expect((await readVouchReviews(deps, url, { wait: false }))?.reviews).toHaveLength(3);
  });

  it("revalidates with the ETag and keeps the list on 304 Not Modified", async () => {
    freshSource();
    fake.set({ kind: "html", html: vouchFixture("vouch-page"), etag: '"abc"' });
    const updatedBefore = await refreshCount("updated");
    await readVouchReviews(deps, url, { wait: true });
    expect(await refreshCount("updated")).toBe(updatedBefore + 1);
    clockSeconds = 65;
    const unchangedBefore = await refreshCount("unchanged");
    await readVouchReviews(deps, url, { wait: true });
    await refreshVouchReviews(deps, url);
    expect(await refreshCount("unchanged")).toBe(unchangedBefore + 1);
    const answer = await readVouchReviews(deps, url, { wait: true });
    expect(answer).toMatchObject({ stale: false, fetchedAt: new Date(T0 + 65_000).toISOString() });
    expect(answer?.reviews).toHaveLength(3);
  });

  it("lets only one of two app instances refresh a due page (database claim)", async () => {
    freshSource();
    fake.set({ kind: "html", html: vouchFixture("vouch-page") });
    await readVouchReviews(deps, url, { wait: true });
    clockSeconds = 70;
    const second = database.open();
    let fetches = 0;
    const counting: typeof fetchVouchPage = (u, o) => {
      fetches += 1;
      return fetchVouchPage(u, o);
    };
    // Two "instances" with their own connections: the second finds the attempt already claimed in the database.
    await refreshVouchReviews({ ...deps, fetchPage: counting }, url);
    await refreshVouchReviews({ ...deps, db: second.db, fetchPage: counting }, url);
    expect(fetches).toBe(1);
  });

  it("stores hostile pages as inert text", async () => {
    freshSource();
    fake.set({ kind: "html", html: vouchFixture("vouch-page-hostile") });
    const answer = await readVouchReviews(deps, url, { wait: true });
    const row = await database.handle.db
      .selectFrom("reviews_cache")
      .select("payload")
      .where("source", "=", url)
      .executeTakeFirstOrThrow();
    for (const text of [JSON.stringify(answer), row.payload ?? ""]) {
      expect(text).not.toMatch(/<|>|javascript:|onerror/);
    }
  });
});
