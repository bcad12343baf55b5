// Issue 42, "Sessions end everywhere": the inbox's event stream checks its session again in the database before every
// event it would send and every few seconds, so a session ended anywhere (Sign out everywhere, a removal, the idle
// end) closes the stream instead of feeding it for as long as the connection lives.
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createSupportInboxApi, SESSION_RECHECK_MS } from "~/features/console/support/inbox-live.api.server";
import { inviteStaff, removeStaff } from "~/features/staff/people.server";
import { createSession, endAllSessions } from "~/features/staff/sessions.server";
import { ringConversation } from "~/features/support-conversation/conversation-doorbell.server";
import { type EventStreamReader, openEventStream } from "../support/event-stream";
import { staffSessionHash } from "../support/staff-sessions";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();

describe.each(dialects)("the inbox's event stream on %s", (dialect) => {
  const database = useAppEnvironment(dialect, { PUBLIC_URL: "http://console.test" });
  const db = () => database().handle.db;
  let people = 0;
  const closers: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  async function serve(recheckMs: number) {
    const app = express();
    app.use("/api", createSupportInboxApi({ recheckMs }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    closers.push(
      () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    return `http://127.0.0.1:${port}/api/admin/support/events`;
  }

  async function agent() {
    const email = `agent-${++people}@example.com`;
    const { staff } = await inviteStaff(db(), { email, role: "support", by: "cli" });
    const token = await createSession(db(), { staffId: staff.id, beganWith: "passkey" });
    return { staff, token, cookie: `kestrel-staff=${token}` };
  }

  async function open(url: string, cookie: string): Promise<EventStreamReader> {
    const stream = await openEventStream(url, { cookie });
    closers.push(async () => stream.close());
    expect(stream.status).toBe(200);
    return stream;
  }

  const endsWithin = (stream: EventStreamReader, ms: number) =>
    Promise.race([
      stream.ended.then(() => "ended"),
      new Promise((resolve) => setTimeout(() => resolve("still open"), ms)),
    ]);

  it("checks again at most every 30 s", () => {
    expect(SESSION_RECHECK_MS).toBeLessThanOrEqual(30_000);
  });

  it("sends nothing more and closes at the next event after Sign out everywhere", async () => {
    const url = await serve(60_000);
    const me = await agent();
    const stream = await open(url, me.cookie);
    ringConversation("c-before");
    await stream.waitFor((event) => event.data === "c-before");
    await endAllSessions(db(), me.staff.id);
    ringConversation("c-after");
    expect(await endsWithin(stream, 5_000)).toBe("ended");
    expect(stream.events.map((event) => event.data)).toEqual(["c-before"]);
  });

  it("closes within the re-check interval when nothing happens, after a removal", async () => {
    const url = await serve(200);
    const me = await agent();
    const stream = await open(url, me.cookie);
    expect(await endsWithin(stream, 700)).toBe("still open");
    await removeStaff(db(), me.staff.email);
    expect(await endsWithin(stream, 3_000)).toBe("ended");
  });

  it("stays open while the session stands, without counting the checks as its use", async () => {
    const url = await serve(100);
    const me = await agent();
    const seen = () =>
      db()
        .selectFrom("staff_sessions")
        .select("last_seen_at")
        .where("id_hash", "=", staffSessionHash(me.token))
        .executeTakeFirstOrThrow();
    const before = await seen();
    const stream = await open(url, me.cookie);
    expect(await endsWithin(stream, 600)).toBe("still open");
    ringConversation("c-live");
    await stream.waitFor((event) => event.data === "c-live");
    expect(await seen()).toEqual(before);
  });
});
