import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { loadStatusConsole, statusConsoleAction } from "~/features/console/status/status-page.server";
import { createSession } from "~/features/staff/sessions.server";
import { inviteStaff } from "~/features/staff/people.server";
import type { StaffRole } from "~/features/staff/roles";
import { getContent } from "~/features/content/content.server";
import { createPostgresDoorbell } from "~/features/support-conversation/conversation-live.server";
import { createLocalDoorbell } from "~/features/support-conversation/conversation-doorbell.server";
import {
  announceStatusChange,
  createStatusNews,
  STATUS_NEWS_CHANNEL,
  startStatusNews,
  statusGeneration,
} from "~/features/status/status-news.server";
import { loadIncident, seedStatusEntries } from "~/features/status/status.server";
import { getDb } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://console.test";

/** What a thrown or returned `data()` / Response answers with. */
function answerOf(value: unknown): { status: number; data?: unknown } {
  if (value instanceof Response) return { status: value.status };
  const { init, data } = value as { init?: { status?: number }; data?: unknown };
  return { status: init?.status ?? 200, data };
}

async function settle(work: Promise<unknown>) {
  try {
    return answerOf(await work);
  } catch (thrown) {
    return answerOf(thrown);
  }
}

describe.each(dialects)("the console's status and incidents on %s", (dialect) => {
  const database = useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const db = () => getDb().db;
  let people = 0;

  async function cookieFor(role: StaffRole) {
    const { staff } = await inviteStaff(db(), { email: `${role}-${++people}@example.com`, role, by: "cli" });
    return `kestrel-staff=${await createSession(db(), { staffId: staff.id, beganWith: "passkey" })}`;
  }

  function post(cookie: string, form: Record<string, string | string[]>) {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form))
      for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
    const request = new Request(`${ORIGIN}/admin/status`, {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
    const context = new RouterContextProvider();
    context.set(clientAddressContext, "10.0.0.9");
    return settle(statusConsoleAction(request, context));
  }

  async function audit(action: string) {
    const rows = await db()
      .selectFrom("audit_log")
      .select(["actor", "target", "detail"])
      .where("action", "=", action)
      .orderBy("id")
      .execute();
    return rows.map((row) => ({ ...row, detail: JSON.parse(row.detail ?? "null") }));
  }

  async function alerts() {
    const rows = await db()
      .selectFrom("support_requests")
      .select("answers")
      .where("category", "=", "Status Alert")
      .orderBy("created_at")
      .execute();
    return rows.map((row) => JSON.parse(row.answers) as string[]);
  }

  it("sets a product's status: audited with before and after, told to the support channel, announced", async () => {
    await seedStatusEntries(db(), getContent().status);
    const admin = await cookieFor("admin");
    const generation = statusGeneration();
    expect(await post(admin, { intent: "status", product: "Kestrel Vault", status: "outage" })).toEqual({
      status: 200,
      data: { notice: { kind: "status-saved", product: "Kestrel Vault", status: "outage" } },
    });
    expect(statusGeneration()).toBeGreaterThan(generation);
    const row = await db().selectFrom("status_entries").select("status").where("name", "=", "Kestrel Vault").execute();
    expect(row).toEqual([{ status: "outage" }]);
    expect(await audit("status-changed")).toEqual([
      {
        actor: expect.stringMatching(/^admin-/),
        target: "Kestrel Vault",
        detail: { before: "operational", after: "outage" },
      },
    ]);
    expect(await alerts()).toEqual([
      [
        "Kestrel Vault is down",
        expect.stringMatching(/^Set in the console by admin-\d+@example\.com \(was operational\)\.$/),
        `${ORIGIN}/status`,
      ],
    ]);
    // The same status again changes nothing and tells nobody.
    expect((await post(admin, { intent: "status", product: "Kestrel Vault", status: "outage" })).data).toEqual({
      notice: { kind: "status-unchanged", product: "Kestrel Vault" },
    });
    expect(await audit("status-changed")).toHaveLength(1);
    expect(await alerts()).toHaveLength(1);
  });

  it("refuses a product or status not on the list, with nothing written", async () => {
    const admin = await cookieFor("admin");
    expect(await post(admin, { intent: "status", product: "Kestrel Nope", status: "outage" })).toMatchObject({
      status: 400,
      data: { notice: { kind: "bad-product" } },
    });
    expect(await post(admin, { intent: "status", product: "Kestrel Studio", status: "unknown" })).toMatchObject({
      status: 400,
      data: { notice: { kind: "bad-status" } },
    });
    expect(await audit("status-changed")).toHaveLength(1);
  });

  it("previews without writing, publishes, posts an update and resolves, each audited", async () => {
    const owner = await cookieFor("owner");
    const draft = {
      title: "Checkout errors",
      products: ["Kestrel Studio", "Kestrel Vault"],
      status: "investigating",
      body: "Some payments fail.\nWe are on it.",
    };
    expect(await post(owner, { intent: "preview", ...draft })).toEqual({
      status: 200,
      data: {
        notice: { kind: "preview" },
        draft: { for: "new", ...draft, html: "<p>Some payments fail.<br />We are on it.</p>" },
      },
    });
    // The preview is the Markdown as /status renders it, raw HTML shown as text.
    expect(
      await post(owner, {
        intent: "preview",
        ...draft,
        body: "**Most** payments <b>fail</b>: [see](https://example.com)",
      }),
    ).toMatchObject({
      data: {
        draft: {
          html: '<p><strong>Most</strong> payments &lt;b&gt;fail&lt;/b&gt;: <a href="https://example.com/" rel="nofollow noopener noreferrer">see</a></p>',
        },
      },
    });
    expect(await db().selectFrom("incidents").select("id").execute()).toEqual([]);

    const published = await post(owner, { intent: "publish", ...draft });
    expect(published).toMatchObject({ status: 200, data: { notice: { kind: "published", title: "Checkout errors" } } });
    const id = (published.data as { notice: { id: number } }).notice.id;
    const incident = await loadIncident(db(), id);
    expect(incident).toMatchObject({ status: "investigating", products: ["Kestrel Studio", "Kestrel Vault"] });
    expect(await audit("incident-opened")).toEqual([
      {
        actor: expect.stringMatching(/^owner-/),
        target: `incident ${id}`,
        detail: {
          before: null,
          after: {
            title: "Checkout errors",
            products: ["Kestrel Studio", "Kestrel Vault"],
            status: "investigating",
            body: draft.body,
            resolvedAt: null,
          },
        },
      },
    ]);

    expect(
      await post(owner, { intent: "update", incident: String(id), status: "monitoring", body: "Fixed; watching." }),
    ).toMatchObject({ status: 200, data: { notice: { kind: "updated", id, status: "monitoring" } } });
    expect(await audit("incident-updated")).toMatchObject([
      { detail: { before: { status: "investigating" }, after: { status: "monitoring", body: "Fixed; watching." } } },
    ]);

    expect(
      await post(owner, { intent: "update", incident: String(id), status: "resolved", body: "All good again." }),
    ).toMatchObject({ status: 200, data: { notice: { kind: "updated", id, status: "resolved" } } });
    const resolved = await loadIncident(db(), id);
    expect(resolved?.resolvedAt).not.toBeNull();
    expect(resolved?.updates.map((u) => u.html)).toEqual([
      "<p>All good again.</p>",
      "<p>Fixed; watching.</p>",
      "<p>Some payments fail.<br />We are on it.</p>",
    ]);
    expect(await audit("incident-resolved")).toMatchObject([
      { detail: { before: { status: "monitoring", resolvedAt: null }, after: { status: "resolved" } } },
    ]);
    // Resolving it again keeps the first resolution.
    expect(
      await post(owner, { intent: "update", incident: String(id), status: "resolved", body: "Again." }),
    ).toMatchObject({ status: 409, data: { notice: { kind: "already-resolved", id } } });
    expect(await audit("incident-resolved")).toHaveLength(1);
    expect((await alerts()).map(([headline]) => headline)).toEqual([
      "Kestrel Vault is down",
      "Incident opened (investigating): Checkout errors",
      "Incident update (monitoring): Checkout errors",
      "Incident resolved: Checkout errors",
    ]);
  });

  it("publishes an incident that is already over as one resolved update", async () => {
    const admin = await cookieFor("admin");
    const published = await post(admin, {
      intent: "publish",
      title: "Short outage",
      status: "resolved",
      body: "Ten minutes of failed sign-ins; over.",
    });
    const id = (published.data as { notice: { id: number } }).notice.id;
    const incident = await loadIncident(db(), id);
    expect(incident?.resolvedAt).toBe(incident?.startedAt);
    expect(incident?.updates.map((u) => u.status)).toEqual(["resolved"]);
  });

  it("gives back what was typed with a refusal, and refuses an unknown incident", async () => {
    const admin = await cookieFor("admin");
    const tooLong = "x".repeat(201);
    expect(
      await post(admin, { intent: "publish", title: tooLong, status: "investigating", body: "Something." }),
    ).toMatchObject({
      status: 400,
      data: { notice: { kind: "bad-title" }, draft: { for: "new", title: tooLong, body: "Something." } },
    });
    expect(await post(admin, { intent: "publish", title: "T", status: "investigating", body: "  " })).toMatchObject({
      status: 400,
      data: { notice: { kind: "bad-body" } },
    });
    expect(
      await post(admin, { intent: "publish", title: "T", products: ["Nope"], status: "investigating", body: "B" }),
    ).toMatchObject({ status: 400, data: { notice: { kind: "bad-product" } } });
    expect(await post(admin, { intent: "update", incident: "999999", status: "monitoring", body: "B" })).toMatchObject({
      status: 404,
      data: { notice: { kind: "not-found" } },
    });
    expect(await post(admin, { intent: "update", incident: "1e3", status: "monitoring", body: "B" })).toMatchObject({
      status: 404,
    });
  });

  it("lets owners and admins in, and gives support, a stranger and a foreign origin no way to change anything", async () => {
    const support = await cookieFor("support");
    const before = await db().selectFrom("audit_log").select("id").execute();
    expect(await post(support, { intent: "status", product: "Kestrel Vault", status: "operational" })).toEqual({
      status: 403,
      data: { error: "Forbidden" },
    });
    expect(await post("", { intent: "status", product: "Kestrel Vault", status: "operational" })).toMatchObject({
      status: 401,
    });
    const page = (cookie: string) =>
      settle(loadStatusConsole(new Request(`${ORIGIN}/admin/status`, { headers: { cookie } })));
    expect((await page(support)).status).toBe(403);
    expect((await page(await cookieFor("admin"))).status).toBe(200);
    const foreign = new Request(`${ORIGIN}/admin/status`, {
      method: "POST",
      headers: {
        cookie: await cookieFor("owner"),
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "intent=status&product=Kestrel+Vault&status=operational",
    });
    expect((await settle(statusConsoleAction(foreign, new RouterContextProvider()))).status).toBe(403);
    expect(await db().selectFrom("audit_log").select("id").execute()).toEqual(before);
  });

  it("loads the products and the open incidents", async () => {
    const admin = await cookieFor("admin");
    const page = await settle(loadStatusConsole(new Request(`${ORIGIN}/admin/status`, { headers: { cookie: admin } })));
    const { products, incidents } = page.data as {
      products: Array<{ name: string; status: string }>;
      incidents: Array<{ title: string }>;
    };
    expect(products.map((p) => p.name)).toEqual(getContent().status.map((entry) => entry.name));
    expect(products.find((p) => p.name === "Kestrel Vault")?.status).toBe("outage");
    // Resolved ones are on /status; the console lists what can still be updated.
    expect(incidents).toEqual([]);
  });

  it("announces a change to every instance: this one at once, another through the shared bell", async () => {
    const stop = startStatusNews();
    try {
      const generation = statusGeneration();
      announceStatusChange();
      expect(statusGeneration()).toBeGreaterThan(generation);
      if (dialect === "postgres") {
        // Another instance: its own bell on the same database and channel.
        const other = createStatusNews(
          createPostgresDoorbell({
            connectionString: database().url ?? "",
            db,
            onReconnect: () => {},
            channel: STATUS_NEWS_CHANNEL,
          }),
        );
        try {
          // Its listener connects on the first listen; a ring before that is lost, so ring until it hears one.
          await expect
            .poll(() => {
              announceStatusChange();
              return other.generation();
            })
            .toBeGreaterThan(0);
          const ours = statusGeneration();
          await expect
            .poll(() => {
              other.announce();
              return statusGeneration();
            })
            .toBeGreaterThan(ours);
        } finally {
          await other.close();
        }
      }
    } finally {
      await stop();
    }
  });
});

describe("status news without a shared bell", () => {
  it("counts each announcement on this process's own bell", () => {
    const news = createStatusNews(createLocalDoorbell());
    expect(news.generation()).toBe(0);
    news.announce();
    news.announce();
    expect(news.generation()).toBe(2);
  });
});
