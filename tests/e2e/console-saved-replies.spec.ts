import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { axeBuilder } from "../support/axe";
import { gotoHydrated } from "../support/hydration";
import { addStaffSession } from "../support/staff-sessions";
import { openStoreDatabase } from "../support/store-database";

// Saved replies in the console (issue 35): an admin adds, edits and deletes them (one add without JavaScript), each
// change is in the audit log with before and after, support is refused the page and its forms, and the page passes
// axe and fits a 360 px phone. The message box that inserts them is tested in message-box.test.ts.

test.describe.configure({ mode: "serial" });

let server: AppServer;
let origin: string;
let adminToken: string;
let supportToken: string;
let ownerToken: string;
let admin: { context: BrowserContext; page: Page };

async function signedIn(browser: Browser, token: string, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext(options);
  await context.addCookies([{ name: "kestrel-staff", value: token, url: origin }]);
  return { context, page: await context.newPage() };
}

test.beforeAll(async ({ browser }) => {
  server = await startAppServer({ env: { LOG_LEVEL: "silent" } });
  origin = `http://localhost:${server.port}`;
  adminToken = addStaffSession(server.dataDir, "admin@example.com", "admin");
  supportToken = addStaffSession(server.dataDir, "agent@example.com", "support");
  ownerToken = addStaffSession(server.dataDir, "owner@example.com", "owner");
  admin = await signedIn(browser, adminToken);
});
test.afterAll(async () => {
  await admin?.context.close();
  await server?.stop();
});

const PAGE = "/admin/support/saved-replies";

function auditEntries(action: string) {
  const db = openStoreDatabase(server.dataDir);
  try {
    return (
      db.prepare("SELECT actor, target, detail FROM audit_log WHERE action = ? ORDER BY id").all(action) as Array<{
        actor: string;
        target: string;
        detail: string;
      }>
    ).map((row) => ({ actor: row.actor, target: row.target, detail: JSON.parse(row.detail) }));
  } finally {
    db.close();
  }
}

function savedReplyCount(): number {
  const db = openStoreDatabase(server.dataDir);
  try {
    return (db.prepare("SELECT count(*) AS n FROM support_saved_replies").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function expectNoAxeViolations(page: Page) {
  const { violations } = await axeBuilder(page).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
}

const listed = (page: Page) => page.getByRole("region", { name: "Your saved replies" }).getByRole("listitem");
const addForm = (page: Page) => page.getByRole("form", { name: "Add saved reply" });

test("with none yet, the page says so under Saved replies in the console's navigation, with no axe violations", async () => {
  const { page } = admin;
  await gotoHydrated(page, `${origin}${PAGE}`);
  await expect(page.getByRole("heading", { level: 1, name: "Saved replies" })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Saved replies" }),
  ).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No saved replies yet.")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("an admin adds a saved reply in German: it is listed with its language and text, and the form is empty again", async () => {
  const { page } = admin;
  const form = addForm(page);
  await form.getByLabel("Title").fill("Schlüssel erneut gesendet");
  await form
    .getByLabel("Text")
    .fill("Wir haben Ihren Schlüssel erneut gesendet.\nBitte prüfen Sie auch den Spam-Ordner.");
  await form.getByLabel("Language").selectOption({ label: "Deutsch" });
  await form.getByRole("button", { name: "Add saved reply" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved reply added. The team can insert it in the inbox now.");
  await expect(page).toHaveURL(`${origin}${PAGE}?done=added`);
  await expect(listed(page)).toHaveCount(1);
  const card = listed(page).first();
  await expect(card.getByRole("heading", { name: "Schlüssel erneut gesendet" })).toBeVisible();
  await expect(card).toContainText("Deutsch");
  await expect(card).toContainText("Wir haben Ihren Schlüssel erneut gesendet. Bitte prüfen Sie auch den Spam-Ordner.");
  await expect(card).toContainText("Last changed");
  await expect(form.getByLabel("Title")).toHaveValue("");
  await expect(form.getByLabel("Text")).toHaveValue("");
  await expect(form.getByLabel("Language")).toHaveValue("any");

  expect(auditEntries("saved-reply-created")).toEqual([
    {
      actor: "admin@example.com",
      target: "Schlüssel erneut gesendet",
      detail: {
        id: expect.any(String),
        before: null,
        after: {
          title: "Schlüssel erneut gesendet",
          body: "Wir haben Ihren Schlüssel erneut gesendet.\nBitte prüfen Sie auch den Spam-Ordner.",
          locale: "de",
        },
      },
    },
  ]);
});

test("a title of spaces is refused beside its field, and what was typed stays", async () => {
  const { page } = admin;
  const form = addForm(page);
  await form.getByLabel("Title").fill("   ");
  await form.getByLabel("Text").fill("Kept text.");
  await form.getByRole("button", { name: "Add saved reply" }).click();
  await expect(page.getByRole("alert")).toHaveText("The saved reply was not kept: fix the fields marked below.");
  const title = form.getByLabel("Title");
  await expect(title).toHaveAttribute("aria-invalid", "true");
  await expect(title).toBeFocused();
  await expect(title).toHaveAccessibleDescription(
    "Give the saved reply a title: it is what the team types after / to find it.",
  );
  await expect(form.getByLabel("Text")).toHaveValue("Kept text.");
  await expect(form.getByLabel("Text")).not.toHaveAttribute("aria-invalid");
  expect(savedReplyCount()).toBe(1);
});

test("without JavaScript, the Add form posts and the page answers with the reply listed", async ({ browser }) => {
  const plain = await signedIn(browser, adminToken, { javaScriptEnabled: false });
  try {
    const { page } = plain;
    await page.goto(`${origin}${PAGE}`);
    const form = addForm(page);
    await form.getByLabel("Title").fill("Refund policy");
    await form.getByLabel("Text").fill("Refunds take up to 14 days after we confirm them.");
    await form.getByRole("button", { name: "Add saved reply" }).click();
    await expect(page).toHaveURL(`${origin}${PAGE}?done=added`);
    await expect(page.getByRole("status")).toHaveText("Saved reply added. The team can insert it in the inbox now.");
    await expect(listed(page)).toHaveCount(2);
    // By title: "Refund policy" before "Schlüssel …".
    await expect(listed(page).first().getByRole("heading")).toHaveText("Refund policy");
    await expect(listed(page).first()).toContainText("Any language");
  } finally {
    await plain.context.close();
  }
  expect(auditEntries("saved-reply-created").map((entry) => entry.target)).toEqual([
    "Schlüssel erneut gesendet",
    "Refund policy",
  ]);
});

test("an admin edits a saved reply: its new text and language are listed, and the change is audited", async () => {
  const { page } = admin;
  await gotoHydrated(page, `${origin}${PAGE}`);
  await page.getByRole("link", { name: "Edit “Refund policy”" }).click();
  const edit = page.getByRole("form", { name: "Refund policy" });
  await expect(edit.getByLabel("Title")).toHaveValue("Refund policy");
  await expect(edit.getByLabel("Title")).toBeFocused();
  await edit.getByLabel("Text").fill("Refunds take up to 14 days.");
  await edit.getByLabel("Language").selectOption({ label: "English" });
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved reply changed.");
  const card = listed(page).filter({ has: page.getByRole("heading", { name: "Refund policy" }) });
  await expect(card).toContainText("Refunds take up to 14 days.");
  await expect(card).toContainText("English");
  await expect(page.getByRole("form", { name: "Refund policy" })).toHaveCount(0);
  expect(auditEntries("saved-reply-updated")).toEqual([
    {
      actor: "admin@example.com",
      target: "Refund policy",
      detail: {
        id: expect.any(String),
        before: { title: "Refund policy", body: "Refunds take up to 14 days after we confirm them.", locale: null },
        after: { title: "Refund policy", body: "Refunds take up to 14 days.", locale: "en" },
      },
    },
  ]);
});

test("Delete asks first (no axe violations there); Keep it keeps it, Delete saved reply deletes it and is audited", async () => {
  const { page } = admin;
  await page.getByRole("link", { name: "Delete “Schlüssel erneut gesendet”" }).click();
  const confirm = page.getByRole("region", { name: "Delete this saved reply?" });
  await expect(confirm.getByRole("heading", { name: "Delete this saved reply?" })).toBeFocused();
  await expect(confirm).toContainText("Schlüssel erneut gesendet");
  await expect(confirm).toContainText("Bitte prüfen Sie auch den Spam-Ordner.");
  await expectNoAxeViolations(page);
  await confirm.getByRole("link", { name: "Keep it" }).click();
  await expect(listed(page)).toHaveCount(2);

  await page.getByRole("link", { name: "Delete “Schlüssel erneut gesendet”" }).click();
  await page.getByRole("button", { name: "Delete saved reply" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved reply deleted.");
  await expect(listed(page)).toHaveCount(1);
  await expect(page.getByRole("heading", { name: "Schlüssel erneut gesendet" })).toHaveCount(0);
  expect(auditEntries("saved-reply-deleted")).toEqual([
    {
      actor: "admin@example.com",
      target: "Schlüssel erneut gesendet",
      detail: {
        id: expect.any(String),
        before: {
          title: "Schlüssel erneut gesendet",
          body: "Wir haben Ihren Schlüssel erneut gesendet.\nBitte prüfen Sie auch den Spam-Ordner.",
          locale: "de",
        },
        after: null,
      },
    },
  ]);
});

test("the owner finds each change in the audit log", async ({ browser }) => {
  const owner = await signedIn(browser, ownerToken);
  try {
    const { page } = owner;
    await page.goto(`${origin}/admin/audit`);
    const rows = page.getByRole("region", { name: "Audit entries" }).getByRole("row");
    await expect(rows.filter({ hasText: "saved-reply-created" })).toHaveCount(2);
    await expect(rows.filter({ hasText: "saved-reply-updated" })).toContainText("Refunds take up to 14 days.");
    await expect(rows.filter({ hasText: "saved-reply-deleted" })).toContainText("Schlüssel erneut gesendet");
    await page.goto(`${origin}/admin/audit?action=saved-reply-deleted`);
    await expect(page.getByRole("combobox", { name: "Action" })).toHaveValue("saved-reply-deleted");
    await expect(rows).toHaveCount(2);
  } finally {
    await owner.context.close();
  }
});

test("the page fits a 360 px phone with a long reply listed and its edit form open, with no axe violations", async () => {
  const { page } = admin;
  await page.setViewportSize({ width: 360, height: 740 });
  await gotoHydrated(page, `${origin}${PAGE}`);
  const form = addForm(page);
  await form.getByLabel("Title").fill(`Lizenzschlüsselübertragungsanleitung${"x".repeat(60)}`);
  await form.getByLabel("Text").fill(`https://example.com/${"a".repeat(300)} ${"Ein sehr langer Text. ".repeat(25)}`);
  await form.getByRole("button", { name: "Add saved reply" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved reply added. The team can insert it in the inbox now.");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Edit “Refund policy”" }).click();
  await expect(page.getByRole("form", { name: "Refund policy" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 720 });
});

function post(token: string, form: Record<string, string>) {
  return fetch(`${origin}${PAGE}`, {
    method: "POST",
    headers: { cookie: `kestrel-staff=${token}`, origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
}

test("support gets 403 on the page and on a direct POST of each form, changes nothing, and has no link to it", async () => {
  const page = await fetch(`${origin}${PAGE}`, {
    headers: { cookie: `kestrel-staff=${supportToken}`, accept: "text/html" },
    redirect: "manual",
  });
  expect(page.status).toBe(403);
  expect(await page.text()).toContain("You do not have access to this page");
  const db = openStoreDatabase(server.dataDir);
  const { id } = db.prepare("SELECT id FROM support_saved_replies WHERE title = 'Refund policy'").get() as {
    id: string;
  };
  db.close();
  const count = savedReplyCount();
  const forms: Array<Record<string, string>> = [
    { intent: "add", title: "Mine", body: "Mine.", locale: "any" },
    { intent: "save", id, title: "Mine", body: "Mine.", locale: "any" },
    { intent: "delete", id },
  ];
  for (const form of forms) {
    const res = await post(supportToken, form);
    expect(res.status, form.intent).toBe(403);
  }
  expect(savedReplyCount()).toBe(count);
  expect(auditEntries("saved-reply-updated")).toHaveLength(1);
  // The same POST from an admin goes through, so the 403 above is the role's.
  expect((await post(adminToken, { intent: "delete", id })).status).toBe(303);
  expect(savedReplyCount()).toBe(count - 1);
  const dashboard = await fetch(`${origin}/admin`, { headers: { cookie: `kestrel-staff=${supportToken}` } });
  expect(await dashboard.text()).not.toContain(`href="${PAGE}"`);
});
