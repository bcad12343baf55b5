import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { SAVED_REPLY_BODY_MAX, savedReplyInputSchema } from "~/features/console/saved-replies/saved-replies";
import { loadSavedRepliesPage, savedRepliesAction } from "~/features/console/saved-replies/saved-replies-page.server";
import {
  createSavedReply,
  deleteSavedReply,
  listSavedReplies,
  savedRepliesFor,
  updateSavedReply,
} from "~/features/console/saved-replies/saved-replies.server";
import type { StaffRole } from "~/features/staff/roles";
import { createSession } from "~/features/staff/sessions.server";
import { inviteStaff } from "~/features/staff/people.server";
import { MAX_MESSAGE_LENGTH } from "~/features/support-conversation/support-conversation";
import { getDb } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://console.test";
const PAGE = `${ORIGIN}/admin/support/saved-replies`;

/** What a thrown or returned `data()` / Response answers with. */
function answerOf(value: unknown): { status: number; data?: unknown; location?: string | null } {
  if (value instanceof Response) return { status: value.status, location: value.headers.get("Location") };
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

const by = { actor: "cli", staffId: "staff-1" };
const input = (title: string, body: string, locale: string) => savedReplyInputSchema.parse({ title, body, locale });

describe("a saved reply's form is checked", () => {
  const valid = { title: "Thanks", body: "Thank you for writing.", locale: "any" };
  const problem = (change: Record<string, string>) => {
    const parsed = savedReplyInputSchema.safeParse({ ...valid, ...change });
    return parsed.success ? null : parsed.error.issues.map((issue) => [issue.path[0], issue.message]);
  };

  it("takes a title of 1 to 100 characters and a text as long as a message in the inbox, trimmed", () => {
    expect(SAVED_REPLY_BODY_MAX).toBe(MAX_MESSAGE_LENGTH);
    expect(savedReplyInputSchema.parse({ ...valid, title: "  Thanks \n" })).toEqual({
      title: "Thanks",
      body: "Thank you for writing.",
      locale: null,
    });
    expect(problem({ title: "t".repeat(100) })).toBeNull();
    expect(problem({ title: "t".repeat(101) })).toEqual([["title", "too-long"]]);
    expect(problem({ title: "   " })).toEqual([["title", "empty"]]);
    expect(problem({ body: "b".repeat(MAX_MESSAGE_LENGTH) })).toBeNull();
    expect(problem({ body: "b".repeat(MAX_MESSAGE_LENGTH + 1) })).toEqual([["body", "too-long"]]);
    expect(problem({ body: "\n\n" })).toEqual([["body", "empty"]]);
    expect(problem({ body: "half an emoji \ud83d" })).toEqual([["body", "broken"]]);
  });

  it("takes any language or one of the shop's five, and nothing else", () => {
    for (const locale of ["en", "de", "es", "pt-br", "ar"])
      expect(savedReplyInputSchema.parse({ ...valid, locale }).locale).toBe(locale);
    for (const locale of ["fr", "", "EN", "en-xa"]) expect(problem({ locale })).toEqual([["locale", "unknown"]]);
  });
});

describe.each(dialects)("saved replies on %s", (dialect) => {
  useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const db = () => getDb().db;
  let people = 0;

  async function audit(action: string) {
    const rows = await db()
      .selectFrom("audit_log")
      .select(["actor", "target", "detail", "client_address"])
      .where("action", "=", action)
      .orderBy("id")
      .execute();
    return rows.map((row) => ({ ...row, detail: JSON.parse(row.detail ?? "null") }));
  }

  async function cookieFor(role: StaffRole) {
    const { staff } = await inviteStaff(db(), { email: `${role}-${++people}@example.com`, role, by: "cli" });
    return { staff, cookie: `kestrel-staff=${await createSession(db(), { staffId: staff.id, beganWith: "passkey" })}` };
  }

  function post(cookie: string, form: Record<string, string>) {
    const request = new Request(PAGE, {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });
    const context = new RouterContextProvider();
    context.set(clientAddressContext, "10.0.0.9");
    return settle(savedRepliesAction(request, context));
  }

  function load(cookie: string, search = "") {
    return settle(loadSavedRepliesPage(new Request(`${PAGE}${search}`, { headers: { cookie } })));
  }

  it("lists by title whatever the case, numbers in order; for a language, that language's first, then any", async () => {
    await createSavedReply(db(), input("refund (2 weeks)", "Refunds take two weeks.", "any"), by);
    await createSavedReply(db(), input("Danke", "Danke für Ihre Nachricht.", "de"), by);
    await createSavedReply(db(), input("Step 10", "Then step ten.", "en"), by);
    await createSavedReply(db(), input("Step 9", "First step nine.", "en"), by);
    await createSavedReply(db(), input("Abholung", "Ihr Schlüssel kommt per E-Mail.", "de"), by);
    await createSavedReply(db(), input("any-language greeting", "Hello / Hallo / Hola", "any"), by);

    const titles = (replies: Array<{ title: string }>) => replies.map((reply) => reply.title);
    expect(titles(await listSavedReplies(db()))).toEqual([
      "Abholung",
      "any-language greeting",
      "Danke",
      "refund (2 weeks)",
      "Step 9",
      "Step 10",
    ]);
    expect(titles(await listSavedReplies(db(), { locale: "de" }))).toEqual([
      "Abholung",
      "Danke",
      "any-language greeting",
      "refund (2 weeks)",
    ]);
    expect(titles(await listSavedReplies(db(), { locale: "ar" }))).toEqual([
      "any-language greeting",
      "refund (2 weeks)",
    ]);

    // What the inbox is handed: id, title, text and language, and nothing about who wrote it.
    const forGerman = await savedRepliesFor("de");
    expect(forGerman[0]).toEqual({
      id: expect.any(String),
      title: "Abholung",
      body: "Ihr Schlüssel kommt per E-Mail.",
      locale: "de",
    });
    expect(titles(forGerman)).toEqual(titles(await listSavedReplies(db(), { locale: "de" })));
    // No language, or one the shop does not speak: all of them.
    expect(await savedRepliesFor()).toHaveLength(6);
    expect(await savedRepliesFor("fr")).toHaveLength(6);
  });

  it("audits each change with before and after; an unchanged save and a missing reply write nothing", async () => {
    const now = new Date("2026-03-01T10:00:00Z");
    const created = await createSavedReply(db(), input("Key resent", "We sent your key again.", "en"), by, now);
    expect(created).toMatchObject({ createdBy: "staff-1", createdAt: now.toISOString(), updatedAt: now.toISOString() });
    expect((await audit("saved-reply-created")).at(-1)).toEqual({
      actor: "cli",
      target: "Key resent",
      client_address: null,
      detail: {
        id: created.id,
        before: null,
        after: { title: "Key resent", body: "We sent your key again.", locale: "en" },
      },
    });

    const later = new Date("2026-03-02T10:00:00Z");
    const changed = await updateSavedReply(
      db(),
      created.id,
      input("Key resent", "We sent it again.", "any"),
      by,
      later,
    );
    expect(changed?.changed).toBe(true);
    expect(changed?.after).toMatchObject({ body: "We sent it again.", locale: null, updatedAt: later.toISOString() });
    expect(await audit("saved-reply-updated")).toEqual([
      {
        actor: "cli",
        target: "Key resent",
        client_address: null,
        detail: {
          id: created.id,
          before: { title: "Key resent", body: "We sent your key again.", locale: "en" },
          after: { title: "Key resent", body: "We sent it again.", locale: null },
        },
      },
    ]);
    const again = await updateSavedReply(db(), created.id, input("Key resent", "We sent it again.", "any"), by);
    expect(again).toMatchObject({ changed: false, after: { updatedAt: later.toISOString() } });
    expect(await audit("saved-reply-updated")).toHaveLength(1);
    expect(await updateSavedReply(db(), "no-such-reply", input("x", "y", "any"), by)).toBeUndefined();

    expect(await deleteSavedReply(db(), created.id, by)).toMatchObject({ title: "Key resent" });
    expect(await audit("saved-reply-deleted")).toEqual([
      {
        actor: "cli",
        target: "Key resent",
        client_address: null,
        detail: {
          id: created.id,
          before: { title: "Key resent", body: "We sent it again.", locale: null },
          after: null,
        },
      },
    ]);
    expect(await deleteSavedReply(db(), created.id, by)).toBeUndefined();
    expect(await audit("saved-reply-deleted")).toHaveLength(1);
    expect((await listSavedReplies(db())).some((reply) => reply.id === created.id)).toBe(false);
  });

  it("lets owners and admins manage them on the page: a change answers 303 back to the list", async () => {
    const { staff, cookie } = await cookieFor("admin");
    const added = await post(cookie, {
      intent: "add",
      title: "Where is my key?",
      body: "Check your spam folder.",
      locale: "es",
    });
    expect(added).toEqual({ status: 303, location: "/admin/support/saved-replies?done=added", data: undefined });
    const reply = (await listSavedReplies(db())).find((r) => r.title === "Where is my key?");
    expect(reply).toMatchObject({ locale: "es", createdBy: staff.id });
    expect((await audit("saved-reply-created")).at(-1)).toMatchObject({
      actor: staff.email,
      client_address: "10.0.0.9",
    });
    if (!reply) throw new Error("the reply was added");

    const page = await load(cookie, `?edit=${reply.id}&done=added`);
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ editing: reply.id, deleting: null, done: "added", missing: false });

    expect(
      await post(cookie, { intent: "save", id: reply.id, title: "Key?", body: "Spam folder.", locale: "any" }),
    ).toMatchObject({ status: 303, location: "/admin/support/saved-replies?done=saved" });
    expect(
      await post(cookie, { intent: "save", id: reply.id, title: "Key?", body: "Spam folder.", locale: "any" }),
    ).toMatchObject({ status: 303, location: "/admin/support/saved-replies?done=unchanged" });
    expect((await load(cookie, `?delete=${reply.id}`)).data).toMatchObject({
      deleting: { id: reply.id, title: "Key?", body: "Spam folder.", locale: null },
    });
    const { cookie: owner } = await cookieFor("owner");
    expect(await post(owner, { intent: "delete", id: reply.id })).toMatchObject({
      status: 303,
      location: "/admin/support/saved-replies?done=deleted",
    });
    // Someone else's tab still showing it: a 404 that says it is gone, and the links to it say so too.
    expect(await post(cookie, { intent: "delete", id: reply.id })).toMatchObject({
      status: 404,
      data: { refused: "not-found" },
    });
    expect(
      await post(cookie, { intent: "save", id: reply.id, title: "Key?", body: "Spam.", locale: "any" }),
    ).toMatchObject({
      status: 404,
      data: { refused: "not-found", draft: { for: reply.id, title: "Key?", body: "Spam.", locale: "any" } },
    });
    expect((await load(cookie, `?delete=${reply.id}`)).data).toMatchObject({ deleting: null, missing: true });
  });

  it("gives a refused form back with what was typed and which fields to fix, writing nothing", async () => {
    const { cookie } = await cookieFor("owner");
    const before = (await listSavedReplies(db())).length;
    expect(await post(cookie, { intent: "add", title: "x".repeat(101), body: " ", locale: "fr" })).toEqual({
      status: 400,
      data: {
        refused: "invalid",
        problems: { title: "too-long", body: "empty", locale: "unknown" },
        draft: { for: "new", title: "x".repeat(101), body: " ", locale: "fr" },
      },
    });
    expect(
      await post(cookie, { intent: "add", title: "Long", body: "b".repeat(MAX_MESSAGE_LENGTH + 1), locale: "any" }),
    ).toMatchObject({
      status: 400,
      data: { problems: { body: "too-long" } },
    });
    expect(await post(cookie, { intent: "add", title: "No language" })).toMatchObject({
      status: 400,
      data: { problems: { body: "empty" }, draft: { locale: "any" } },
    });
    expect(await post(cookie, { intent: "rename", id: "x" })).toMatchObject({
      status: 400,
      data: { refused: "bad-request" },
    });
    expect(await post(cookie, { intent: "save", id: "../../etc", title: "a", body: "b", locale: "any" })).toMatchObject(
      {
        status: 404,
      },
    );
    expect((await listSavedReplies(db())).length).toBe(before);
  });

  it("refuses support on the page and its forms (403), and anyone signed out", async () => {
    const { cookie } = await cookieFor("support");
    const before = (await listSavedReplies(db())).length;
    expect((await load(cookie)).status).toBe(403);
    expect(await post(cookie, { intent: "add", title: "Mine", body: "Mine.", locale: "any" })).toMatchObject({
      status: 403,
    });
    const [any] = await listSavedReplies(db());
    if (any) expect((await post(cookie, { intent: "delete", id: any.id })).status).toBe(403);
    expect((await post("", { intent: "add", title: "Mine", body: "Mine.", locale: "any" })).status).toBe(401);
    expect(await load("")).toMatchObject({ status: 303, location: "/admin/sign-in" });
    expect((await listSavedReplies(db())).length).toBe(before);
  });
});
