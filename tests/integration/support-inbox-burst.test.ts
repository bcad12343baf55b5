// One read per burst (issue 42): inbox pages that read the same list at once, as every open page does after a ring,
// share one database read; a ring while it runs, another person's own list or another search reads anew.
import type { Kysely } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { loadInboxPage } from "~/features/console/support/support-page.server";
import { inviteStaff } from "~/features/staff/people.server";
import { createSession } from "~/features/staff/sessions.server";
import { ringConversation } from "~/features/support-conversation/conversation-doorbell.server";
import { getDb } from "~/platform/db.server";
import type { Database } from "../../db/schema";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

// Reads of the list counted, and held open until the test lets them end, so every page is seen asking meanwhile.
const reads = vi.hoisted(() => ({ count: 0, asked: 0, gate: Promise.resolve() }));
vi.mock("~/features/console/support/support.server", async (original) => {
  const actual = await original<typeof import("~/features/console/support/support.server")>();
  return {
    ...actual,
    listInbox: async (...args: Parameters<typeof actual.listInbox>) => {
      reads.count += 1;
      await reads.gate;
      return actual.listInbox(...args);
    },
  };
});
vi.mock("~/features/console/support/inbox-reads.server", async (original) => {
  const actual = await original<typeof import("~/features/console/support/inbox-reads.server")>();
  return {
    sharedInboxRead: (...args: Parameters<typeof actual.sharedInboxRead>) => {
      reads.asked += 1;
      return actual.sharedInboxRead(...args);
    },
  };
});

/** Holds every read open until the returned function is called. */
function holdReads(): () => void {
  let open = () => {};
  reads.gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return open;
}

const dialects = await testDialects();
const ORIGIN = "http://console.test";

describe.each(dialects)("the inbox's live refresh on %s", (dialect) => {
  useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const db = (): Kysely<Database> => getDb().db;
  let people = 0;

  const person = async () => {
    const { staff } = await inviteStaff(db(), { email: `agent-${++people}@example.com`, role: "support", by: "cli" });
    return createSession(db(), { staffId: staff.id, beganWith: "passkey" });
  };
  const load = async (token: string, search: string) => {
    const answer = (await loadInboxPage(
      new Request(`${ORIGIN}/admin/support?${search}`, { headers: { cookie: `kestrel-staff=${token}` } }),
    )) as unknown as { data: { listing: unknown } };
    return answer.data.listing;
  };

  it("reads a list once for the pages asking for it together, and anew after a ring", async () => {
    const agents = await Promise.all([person(), person(), person(), person(), person()]);
    reads.count = 0;
    reads.asked = 0;
    let release = holdReads();
    const together = Promise.all(agents.map((token) => load(token, "scope=all&q=refund")));
    await expect.poll(() => reads.asked).toBe(agents.length);
    release();
    const listings = await together;
    expect(reads.count).toBe(1);
    for (const listing of listings) expect(listing).toEqual(listings[0]);

    // A ring while a read runs: who asks after it reads again (the running read could miss the change).
    reads.count = 0;
    release = holdReads();
    const first = load(agents[0], "scope=all&q=refund");
    await expect.poll(() => reads.count).toBe(1);
    ringConversation("a-conversation");
    const second = load(agents[1], "scope=all&q=refund");
    await expect.poll(() => reads.count).toBe(2);
    release();
    await Promise.all([first, second]);

    // Once a read has ended nothing is kept: the next page reads the database.
    reads.count = 0;
    await load(agents[2], "scope=all&q=refund");
    expect(reads.count).toBe(1);
  });

  it("never shares one person's own list, another search or another page", async () => {
    const [ada, ben] = await Promise.all([person(), person()]);
    reads.count = 0;
    reads.asked = 0;
    const release = holdReads();
    const loads = Promise.all([
      load(ada, "scope=mine"),
      load(ben, "scope=mine"),
      load(ada, "scope=all&q=key"),
      load(ben, "scope=all&q=refund"),
      load(ada, "scope=all&state=resolved"),
      load(ben, "scope=all&page=2"),
    ]);
    await expect.poll(() => reads.asked).toBe(6);
    release();
    await loads;
    expect(reads.count).toBe(6);
  });
});
