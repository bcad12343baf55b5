// The support-streams section of `npm run bench` (alone: BENCH_ONLY=support-streams; left out:
// BENCH_SKIP_SUPPORT_STREAMS=1), issue 30: 2,000 open conversation event streams on one instance (SQLite): memory per
// stream after a full GC (RSS and V8 heap), and how long a message takes from being stored to arriving on its stream —
// stored by the instance (a visitor's POST, rung in-process, as a reply read from Discord is) and written by another
// process (the CLI's `support reply`, found by the instance's check each second). Figures only.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  hashConversationToken,
  newConversationToken,
} from "../../app/features/support-conversation/conversation-store.server.ts";
import { startAppServer } from "../../tests/support/app-server.ts";
import { openEventStream } from "../../tests/support/event-stream.ts";
import { loadAverage, SERVER_MALLOC_ARENA_MAX, SERVER_NODE_OPTIONS, sleep } from "./bench-measure.mjs";

const STREAMS = Number(process.env.BENCH_STREAMS ?? 2000);
/** Messages timed per path, one at a time, each to a different open stream. */
const TIMED = Number(process.env.BENCH_STREAM_MESSAGES ?? 200);
const COOKIE = "kestrel_support_conversation";

/** Nearest-rank percentile of `values` (ms). */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** `count` open conversations of three messages each, written straight into the instance's SQLite file. */
function insertConversations(dataDir, count) {
  const db = new DatabaseSync(path.join(dataDir, "store.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  const now = new Date().toISOString();
  const conversation = db.prepare(
    `INSERT INTO support_conversations (id, request_id, category, locale, visitor_email, status, channel_id, thread_id,
       last_relayed_message_id, next_read_at, visitor_active_at, visitor_seen_seq, last_message_at, created_at,
       resolved_at) VALUES (?, ?, 'Key Reset', 'en', NULL, 'open', NULL, NULL, NULL, NULL, ?, 3, ?, ?, NULL)`,
  );
  const key = db.prepare(
    "INSERT INTO support_conversation_keys (key_hash, conversation_id, purpose, created_at) VALUES (?, ?, 'browser', ?)",
  );
  const message = db.prepare(
    `INSERT INTO support_conversation_messages (conversation_id, seq, id, author, author_name, body, discord_message_id,
       created_at, delivery_status, attempts, next_attempt_at, first_failed_at, last_error, delivered_at, claimed_by,
       claimed_until, emailed_at) VALUES (?, ?, ?, ?, NULL, ?, NULL, ?, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
  );
  const opened = [];
  db.exec("BEGIN");
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    const token = newConversationToken();
    conversation.run(id, crypto.randomUUID(), now, now, now);
    key.run(hashConversationToken(token), id, now);
    message.run(id, 1, crypto.randomUUID(), "system", "Welcome to Kestrel Software support!", now);
    message.run(id, 2, crypto.randomUUID(), "visitor", "Key Reset", now);
    message.run(id, 3, crypto.randomUUID(), "system", "Thank you! Your request has been submitted.", now);
    opened.push({ id, token });
  }
  db.exec("COMMIT");
  return { db, opened };
}

/** RSS and V8 heap (MB) after a full GC, as the server's bench GC hook prints them. */
async function memoryAfterGc(server) {
  const before = server.logs().length;
  process.kill(server.process.pid, "SIGUSR2");
  for (let i = 0; i < 100; i++) {
    await sleep(50);
    const line = /\[memory\] rss=(\d+)MB heapUsed=(\d+)MB/.exec(server.logs().slice(before));
    if (line) return { rss: Number(line[1]), heap: Number(line[2]) };
  }
  throw new Error("the server printed no [memory] line");
}

const clientOf = (i) => `10.${40 + (i >> 16)}.${(i >> 8) & 255}.${(i & 255) + 1}`;

export async function benchSupportStreams({ buildDir }) {
  console.log(`\n## Support conversation streams: ${STREAMS} open on one instance (load average ${loadAverage()})`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-bench-streams-"));
  let server;
  const streams = [];
  let db;
  try {
    server = await startAppServer({
      dataDir,
      env: {
        BUILD_DIR: buildDir,
        LOG_LEVEL: "warn",
        NODE_OPTIONS: SERVER_NODE_OPTIONS,
        MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
        // Every stream below says which client it is: the per-address read limit counts them apart.
        TRUST_PROXY: "loopback",
      },
    });
    while ((await fetch(`${server.url}/readyz`)).status !== 200) await sleep(50);
    const inserted = insertConversations(dataDir, STREAMS);
    db = inserted.db;
    const { opened } = inserted;

    // Warm-up: the routes compiled and the hub's timers started, then closed again.
    for (let i = 0; i < 20; i++) {
      const s = await openEventStream(`${server.url}/api/support/conversation/events`, {
        cookie: `${COOKIE}=${opened[i].token}`,
        "x-forwarded-for": clientOf(i),
      });
      await s.waitFor((e) => e.id === "3", 10_000);
      s.close();
    }
    await sleep(500);
    const idle = await memoryAfterGc(server);

    const openStarted = performance.now();
    for (let i = 0; i < opened.length; i += 100)
      await Promise.all(
        opened.slice(i, i + 100).map(async ({ token }, j) => {
          const s = await openEventStream(`${server.url}/api/support/conversation/events`, {
            cookie: `${COOKIE}=${token}`,
            "x-forwarded-for": clientOf(i + j),
          });
          if (s.status !== 200) throw new Error(`stream ${i + j} answered ${s.status}`);
          streams.push(s);
          await s.waitFor((e) => e.id === "3", 30_000);
        }),
      );
    const openSeconds = (performance.now() - openStarted) / 1000;
    await sleep(1000);
    const loaded = await memoryAfterGc(server);
    const perStreamKb = (mb) => ((mb * 1024) / STREAMS).toFixed(1);

    const streamOf = new Map(streams.map((s, i) => [opened[i].id, s]));
    const pick = (n) => opened[Math.floor((n * opened.length) / TIMED)];

    // (a) Stored by the instance: a visitor's message POSTed, rung in-process, read and written by its stream.
    const stored = [];
    for (let n = 0; n < TIMED; n++) {
      const { id, token } = pick(n);
      const body = `bench message ${n}`;
      const started = performance.now();
      const res = await fetch(`${server.url}/api/support/conversation/messages`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: server.url,
          cookie: `${COOKIE}=${token}`,
          "x-forwarded-for": clientOf(n),
        },
        body: JSON.stringify({ text: body }),
      });
      if (res.status !== 202) throw new Error(`POST messages answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      await streamOf.get(id).waitFor((e) => e.data.includes(`"${body}"`), 10_000);
      stored.push(performance.now() - started);
    }

    // (b) Written by another process (the CLI): no ring reaches the instance; its check each second finds it.
    const insert = db.prepare(
      `INSERT INTO support_conversation_messages (conversation_id, seq, id, author, author_name, body, discord_message_id,
         created_at, delivery_status, attempts, next_attempt_at, first_failed_at, last_error, delivered_at, claimed_by,
         claimed_until, emailed_at)
       SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, 'team', 'Bench', ?, NULL, ?, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
       FROM support_conversation_messages WHERE conversation_id = ?`,
    );
    const otherProcess = [];
    for (let n = 0; n < Math.min(TIMED, 50); n++) {
      const { id } = pick(n);
      const body = `bench reply ${n}`;
      const started = performance.now();
      insert.run(id, crypto.randomUUID(), body, new Date().toISOString(), id);
      await streamOf.get(id).waitFor((e) => e.data.includes(`"${body}"`), 10_000);
      otherProcess.push(performance.now() - started);
    }

    const row = (label, values) =>
      `| ${label} (${values.length}) | ${percentile(values, 50).toFixed(1)} ms | ${percentile(values, 95).toFixed(1)} ms | ${Math.max(...values).toFixed(1)} ms |`;
    console.log("| open streams | opened in | RSS after GC | per stream | V8 heap after GC | per stream |");
    console.log("|---:|---:|---:|---:|---:|---:|");
    console.log(`| 0 | - | ${idle.rss} MB | - | ${idle.heap} MB | - |`);
    console.log(
      `| ${streams.length} | ${openSeconds.toFixed(1)} s | ${loaded.rss} MB | ${perStreamKb(loaded.rss - idle.rss)} KB | ${loaded.heap} MB | ${perStreamKb(loaded.heap - idle.heap)} KB |`,
    );
    console.log(`| message stored → on its stream, ${streams.length} streams open | p50 | p95 | max |`);
    console.log("|---|---:|---:|---:|");
    console.log(row("stored by the instance (POST …/messages, in-process ring)", stored));
    console.log(row("written by another process (CLI; SQLite check every 1 s)", otherProcess));
  } finally {
    for (const s of streams) s.close();
    db?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
