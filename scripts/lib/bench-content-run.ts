// Run by scripts/lib/bench-content.mjs under tsx. Figures only: p50/p95 of a publish (revision, version and audit
// entry in one transaction, the whole shop's content checked) until getContent shows it, and of one reload (every
// override read, the content of all five languages built and checked) with 0 and with 500 published revisions.
import fs from "node:fs";
import path from "node:path";
import { getContent } from "../../app/features/content/content.server.ts";
import { refreshContent } from "../../app/features/content/content-live.server.ts";
import {
  latestRevision,
  publishDocument,
  publishedOverrides,
  validateOverrides,
} from "../../app/features/content/content-overrides.server.ts";
import { closeDatabase, getDb, initDatabase } from "../../app/platform/db.server.ts";
import { parseEnv, resetEnvForTests } from "../../app/platform/env.server.ts";
import { configureLogger } from "../../app/platform/logger.server.ts";
import { createTestDatabase, isPostgresReachable } from "../../tests/support/databases.ts";
import { makeDataDir } from "../../tests/support/app-server.ts";

const RUNS = Number(process.env.BENCH_CONTENT_RUNS ?? 20);
const GERMAN_FAQ = { kind: "faq", locale: "de", key: "" } as const;
const editor = { actor: "bench@example.com", clientAddress: null, userAgent: null };
const german = JSON.parse(fs.readFileSync(path.resolve("content/locales/de/faq.json"), "utf8"));

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  return `p50 ${at(50).toFixed(1).padStart(6)} ms  p95 ${at(95).toFixed(1).padStart(6)} ms  (${samples.length} runs)`;
}

async function bench(dialect: "sqlite" | "postgres") {
  const database = await createTestDatabase(dialect);
  resetEnvForTests(
    parseEnv({
      DATA_DIR: dialect === "sqlite" ? database.dataDir : makeDataDir("kestrel-bench-"),
      DATABASE_URL: database.url ?? "",
      LOG_LEVEL: "silent",
    }),
  );
  configureLogger();
  await initDatabase(async () => {});
  const db = getDb().db;
  try {
    const reload = async () => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        validateOverrides(await publishedOverrides(db));
        times.push(performance.now() - started);
      }
      return times;
    };
    console.log(`content  ${dialect.padEnd(8)} reload, 0 published revisions     ${percentiles(await reload())}`);
    const publish: number[] = [];
    for (let i = 0; i < 500; i++) {
      const value = JSON.stringify(
        german.map((e: { answer: string }, j: number) => (j === 0 ? { ...e, answer: `Antwort ${i}.` } : e)),
      );
      const base = (await latestRevision(db, GERMAN_FAQ))?.id ?? null;
      const started = performance.now();
      await publishDocument(db, GERMAN_FAQ, { value, base }, editor);
      await refreshContent(db);
      if (getContent("de").faq[0]?.answer !== `Antwort ${i}.`) throw new Error("the publish is not shown");
      publish.push(performance.now() - started);
    }
    console.log(`content  ${dialect.padEnd(8)} publish until shown (500 in a row) ${percentiles(publish)}`);
    console.log(`content  ${dialect.padEnd(8)} reload, 500 published revisions   ${percentiles(await reload())}`);
  } finally {
    await closeDatabase();
    resetEnvForTests(undefined);
    await database.drop();
  }
}

await bench("sqlite");
if (await isPostgresReachable()) await bench("postgres");
else console.log("content  postgres not reachable on 127.0.0.1:5432: skipped");
