import { RouterContextProvider } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import {
  contentDocumentAction,
  loadContentDocument,
  loadContentList,
} from "~/features/console/content/content-page.server";
import { buildContent, getContent, showContent } from "~/features/content/content.server";
import { refreshContent } from "~/features/content/content-live.server";
import { createSession } from "~/features/staff/sessions.server";
import { inviteStaff } from "~/features/staff/people.server";
import type { StaffRole } from "~/features/staff/roles";
import { getDb } from "~/platform/db.server";
import { getEnv, resetEnvForTests } from "~/platform/env.server";
import { clientAddressContext } from "~/platform/request-context";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://console.test";
const GERMAN_FAQ = { kind: "faq", locale: "de" };

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

type FormData = {
  form: { value: string; faq: Array<{ id: string; question: string; answer: string }>; base: string; stamp: string };
  draft: { updatedBy: string } | null;
  revisions: Array<{ id: number; action: string; author: string; diff: Array<{ kind: string; text: string }> }>;
  languages: Record<string, string>;
};

describe.each(dialects)("the console's Content room on %s", (dialect) => {
  useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const db = () => getDb().db;
  // This process showed the other dialect's publishes: back to the files, then what this database holds.
  beforeAll(async () => {
    showContent(buildContent(new Map()), new Map(), -1);
    await refreshContent(db());
  });
  let people = 0;

  async function cookieFor(role: StaffRole) {
    const { staff } = await inviteStaff(db(), { email: `${role}-${++people}@example.com`, role, by: "cli" });
    return `kestrel-staff=${await createSession(db(), { staffId: staff.id, beganWith: "passkey" })}`;
  }

  const url = (params: Record<string, string>) => `${ORIGIN}/admin/content/${params.kind}/${params.locale}`;

  function load(cookie: string, params: Record<string, string> = GERMAN_FAQ) {
    return settle(loadContentDocument(new Request(url(params), { headers: { cookie } }), params));
  }

  /** The German FAQ's form as the page shows it, with the first answer changed. */
  function formWith(page: FormData, answer: string, intent: string) {
    const fields: Record<string, string> = {
      intent,
      base: page.form.base,
      stamp: page.form.stamp,
      entries: String(page.form.faq.length),
    };
    page.form.faq.forEach((entry, i) => {
      fields[`id-${i}`] = entry.id;
      fields[`question-${i}`] = entry.question;
      fields[`answer-${i}`] = i === 0 ? answer : entry.answer;
    });
    return fields;
  }

  function post(cookie: string, form: Record<string, string>, params: Record<string, string> = GERMAN_FAQ) {
    const request = new Request(url(params), {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });
    const context = new RouterContextProvider();
    context.set(clientAddressContext, "10.0.0.9");
    return settle(contentDocumentAction(request, context, params));
  }

  it("lets owners and admins in, and gives support a 403", async () => {
    const support = await cookieFor("support");
    expect((await load(support)).status).toBe(403);
    expect(
      (await settle(loadContentList(new Request(`${ORIGIN}/admin/content`, { headers: { cookie: support } })))).status,
    ).toBe(403);
    expect((await post(support, { intent: "save", value: "[]", base: "", stamp: "" })).status).toBe(403);
    const owner = await cookieFor("owner");
    const list = await settle(loadContentList(new Request(`${ORIGIN}/admin/content`, { headers: { cookie: owner } })));
    expect(list.status).toBe(200);
    const faq = (list.data as { documents: Array<{ kind: string; languages: Record<string, string> }> }).documents.find(
      (doc) => doc.kind === "faq",
    );
    expect(faq?.languages).toEqual({ en: "own", de: "own", es: "own", "pt-br": "own", ar: "own" });
    expect((await load(owner, { kind: "nothing", locale: "de" })).status).toBe(404);
  });

  it("saves a German answer as a draft, publishes it, and a stale form meets the conflict (409) losing nothing", async () => {
    const admin = await cookieFor("admin");
    const second = await cookieFor("admin");
    const opened = (await load(admin)).data as FormData;
    const staleForm = (await load(second)).data as FormData;
    const fileAnswer = opened.form.faq[0]?.answer;

    const saved = await post(admin, formWith(opened, "Entwurf der Antwort.", "save"));
    expect(saved).toMatchObject({ status: 303, location: "/admin/content/faq/de?done=saved" });
    const withDraft = (await load(admin)).data as FormData;
    expect(withDraft.draft?.updatedBy).toMatch(/^admin-\d+@example\.com$/);
    expect(withDraft.form.faq[0]?.answer).toBe("Entwurf der Antwort.");
    expect(getContent("de").faq[0]?.answer).toBe(fileAnswer);

    expect((await post(admin, formWith(withDraft, "Neue Antwort.", "publish"))).status).toBe(303);
    expect(getContent("de").faq[0]?.answer).toBe("Neue Antwort.");

    // The second browser's form was opened before any of it.
    const conflict = await post(second, formWith(staleForm, "Meine Antwort.", "publish"));
    expect(conflict.status).toBe(409);
    const answer = conflict.data as {
      conflict: { mine: string; theirs: string; what: string };
      form: FormData["form"];
    };
    expect(answer.conflict.what).toBe("published");
    expect(answer.conflict.mine).toContain("Meine Antwort.");
    expect(answer.conflict.theirs).toContain("Neue Antwort.");
    expect(answer.form.faq[0]?.answer).toBe("Meine Antwort.");
    expect(getContent("de").faq[0]?.answer).toBe("Neue Antwort.");
    // Keeping it is a decision: the form now knows what it overrides.
    expect(
      (await post(second, formWith({ ...staleForm, form: answer.form } as FormData, "Meine Antwort.", "publish")))
        .status,
    ).toBe(303);
    expect(getContent("de").faq[0]?.answer).toBe("Meine Antwort.");

    // History with a diff, and restore brings back the first text.
    const page = (await load(admin)).data as FormData;
    expect(page.revisions.map((r) => r.action)).toEqual(["publish", "publish"]);
    expect(page.revisions[0]?.diff).toContainEqual({ kind: "added", text: expect.stringContaining("Meine Antwort.") });
    const first = page.revisions[1]?.id ?? 0;
    expect(
      (await post(admin, { intent: `restore:${first}`, base: page.form.base, stamp: page.form.stamp })).status,
    ).toBe(303);
    expect(getContent("de").faq[0]?.answer).toBe("Neue Antwort.");
    const actions = await db()
      .selectFrom("audit_log")
      .select("action")
      .where("action", "like", "content-%")
      .orderBy("id")
      .execute();
    expect(actions.map((row) => row.action)).toEqual([
      "content-draft-saved",
      "content-published",
      "content-published",
      "content-restored",
    ]);
  });

  it("gives back what was typed with the field to fix when the shop would refuse it", async () => {
    const admin = await cookieFor("admin");
    const params = { kind: "faq", locale: "en" };
    const page = (await load(admin, params)).data as FormData;
    const refused = await post(admin, formWith(page, "  ", "publish"), params);
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      problems: [{ document: "content/faq.json", field: "[0].answer", expected: "expected a non-empty string" }],
      form: { faq: expect.arrayContaining([expect.objectContaining({ answer: "  " })]) },
    });
    // A German answer left empty is not an error: that answer shows in English.
  });

  it("adds, moves and removes English questions as drafts", async () => {
    const admin = await cookieFor("owner");
    const params = { kind: "faq", locale: "en" };
    const page = (await load(admin, params)).data as FormData;
    const ids = page.form.faq.map((entry) => entry.id);
    const fields = (p: FormData, intent: string) => {
      const f: Record<string, string> = {
        intent,
        base: p.form.base,
        stamp: p.form.stamp,
        entries: String(p.form.faq.length),
      };
      p.form.faq.forEach((entry, i) => {
        f[`id-${i}`] = entry.id;
        f[`question-${i}`] = entry.question;
        f[`answer-${i}`] = entry.answer;
      });
      return f;
    };
    expect((await post(admin, fields(page, "down:0"), params)).status).toBe(303);
    const moved = (await load(admin, params)).data as FormData;
    expect(moved.form.faq.map((e) => e.id)).toEqual([ids[1], ids[0], ...ids.slice(2)]);
    expect((await post(admin, fields(moved, "add"), params)).status).toBe(303);
    const added = (await load(admin, params)).data as FormData;
    expect(added.form.faq).toHaveLength(ids.length + 1);
    expect((await post(admin, fields(added, `remove:${ids.length}`), params)).status).toBe(303);
    expect(((await load(admin, params)).data as FormData).form.faq).toHaveLength(ids.length);
  });

  it("is read-only with CONTENT_EDITING=off", async () => {
    const admin = await cookieFor("admin");
    const page = (await load(admin)).data as FormData & { editing: boolean };
    const env = getEnv();
    resetEnvForTests({ ...env, CONTENT_EDITING: "off" });
    try {
      expect(((await load(admin)).data as { editing: boolean }).editing).toBe(false);
      expect((await post(admin, formWith(page, "Nein.", "publish"))).status).toBe(403);
    } finally {
      resetEnvForTests(env);
    }
    expect(getContent("de").faq[0]?.answer).not.toBe("Nein.");
  });
});
