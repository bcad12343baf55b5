import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildContent, getContent, loadedContentVersion, showContent } from "~/features/content/content.server";
import {
  CONTENT_NEWS_CHANNEL,
  REDIS_CONTENT_NEWS_CHANNEL,
  startContentLive,
} from "~/features/content/content-live.server";
import { contentVersion, latestRevision, publishDocument } from "~/features/content/content-overrides.server";
import { createPostgresDoorbell, createRedisDoorbell } from "~/features/support-conversation/conversation-live.server";
import { getDb } from "~/platform/db.server";
import { getRedis } from "~/platform/redis.server";
import { isPostgresReachable } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const postgres = await isPostgresReachable();
const GERMAN_FAQ = { kind: "faq", locale: "de", key: "" } as const;
const editor = { actor: "owner@example.com", clientAddress: null, userAgent: null };

function germanWith(answer: string) {
  const faq = JSON.parse(fs.readFileSync(path.resolve("content/locales/de/faq.json"), "utf8"));
  faq[0].answer = answer;
  return JSON.stringify(faq, null, 2);
}

// This process is one instance; "another instance" publishes straight into the shared database and rings its own bell.
describe.skipIf(!postgres).each([
  ["PostgreSQL NOTIFY", {}],
  ["Redis pub/sub", { REDIS_URL }],
] as const)("a publish reaches every instance through %s", (bellName, env) => {
  const database = useAppEnvironment("postgres", env);
  const db = () => getDb().db;

  function otherInstanceBell() {
    return "REDIS_URL" in env
      ? createRedisDoorbell({
          url: REDIS_URL,
          publisher: getRedis,
          onReconnect: () => {},
          channel: REDIS_CONTENT_NEWS_CHANNEL,
        })
      : createPostgresDoorbell({
          connectionString: database().url ?? "",
          db,
          onReconnect: () => {},
          channel: CONTENT_NEWS_CHANNEL,
        });
  }

  it(`shows what another instance published when it rings (${bellName}), never half of it`, async () => {
    showContent(buildContent(new Map()), new Map(), -1);
    // No look at the version on a timer here: only the bell can tell this instance.
    const stop = await startContentLive({ checkMs: 3_600_000 });
    const bell = otherInstanceBell();
    try {
      expect(loadedContentVersion()).toBe(0);
      const answer = `Über die Glocke (${bellName}).`;
      await publishDocument(db(), GERMAN_FAQ, { value: germanWith(answer), base: null }, editor);
      expect(getContent("de").faq[0]?.answer).not.toBe(answer);
      // The other instance's listener connects on its first listen; a ring before that is lost, so ring until heard.
      bell.listen("published", () => {});
      await expect
        .poll(
          () => {
            bell.ring("published");
            return getContent("de").faq[0]?.answer;
          },
          { timeout: 20_000 },
        )
        .toBe(answer);
      expect(loadedContentVersion()).toBe(await contentVersion(db()));
    } finally {
      await bell.close?.();
      await stop();
    }
  });

  it("finds a publish whose ring it missed at its next look at the version", async () => {
    const stop = await startContentLive({ checkMs: 200 });
    try {
      const base = (await latestRevision(db(), GERMAN_FAQ))?.id ?? null;
      const answer = `Ohne Glocke (${bellName}).`;
      // Published and never rung: the instance must find it by itself.
      await publishDocument(db(), GERMAN_FAQ, { value: germanWith(answer), base }, editor);
      await expect.poll(() => getContent("de").faq[0]?.answer, { timeout: 20_000 }).toBe(answer);
    } finally {
      await stop();
    }
  });
});
