import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { axeBuilder } from "../support/axe";
import { addStaffSession } from "../support/staff-sessions";
import { auditLines } from "../support/store-database";

// The owner edits the shop (issue 44): an admin edits a German FAQ answer, sees it in the preview and not on /de/faq,
// publishes, and /de/faq shows it; a second browser's stale form of the same answer meets the conflict view and
// loses nothing; restore brings back the first text; support gets 403; the audit log lists it all; an anonymous
// request with every preview parameter and cookie it can forge gets the public page.
// The sessions are put in the database (as the other console specs do); the passkey ceremony is console-door's.

test.describe.configure({ mode: "serial" });

let server: AppServer;
let origin: string;
let adminToken: string;
let secondToken: string;
let supportToken: string;
let admin: { context: BrowserContext; page: Page };
let second: { context: BrowserContext; page: Page };
let visitor: { context: BrowserContext; page: Page };

const FIRST = "Erste neue Antwort: ein Gerät pro Schlüssel.";
const SECOND = "Zweite Antwort aus dem anderen Browser.";

async function signedIn(browser: Browser, token: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled });
  await context.addCookies([{ name: "kestrel-staff", value: token, url: origin }]);
  return { context, page: await context.newPage() };
}

test.beforeAll(async ({ browser }) => {
  server = await startAppServer({ env: { LOG_LEVEL: "silent" } });
  origin = `http://localhost:${server.port}`;
  adminToken = addStaffSession(server.dataDir, "admin@example.com", "admin");
  secondToken = addStaffSession(server.dataDir, "second@example.com", "admin");
  supportToken = addStaffSession(server.dataDir, "agent@example.com", "support");
  admin = await signedIn(browser, adminToken);
  // The second browser works without JavaScript: its stale form gets the server's 409 page.
  second = await signedIn(browser, secondToken, false);
  const context = await browser.newContext({ javaScriptEnabled: false });
  visitor = { context, page: await context.newPage() };
});
test.afterAll(async () => {
  await admin?.context.close();
  await second?.context.close();
  await visitor?.context.close();
  await server?.stop();
});

const contentAudit = () => auditLines(server.dataDir, "content-");

const firstAnswer = (page: Page) => page.getByLabel("Antwort").first();

test("support gets 403 in the Content room", async () => {
  const res = await fetch(`${origin}/admin/content`, { headers: { cookie: `kestrel-staff=${supportToken}` } });
  expect(res.status).toBe(403);
  const preview = await fetch(`${origin}/admin/content-preview?doc=faq/de`, {
    headers: { cookie: `kestrel-staff=${supportToken}` },
  });
  expect(preview.status).toBe(403);
});

test("an admin's German draft shows in the preview and not on /de/faq; published, /de/faq shows it", async () => {
  // The second browser opens the same document now, before anything is saved: its form will be stale.
  await second.page.goto(`${origin}/de/admin/content/faq/de`);
  await expect(firstAnswer(second.page)).toBeVisible();

  await admin.page.goto(`${origin}/de/admin/content/faq/de`);
  await firstAnswer(admin.page).fill(FIRST);
  await admin.page.getByRole("button", { name: "Entwurf speichern" }).click();
  await expect(admin.page.getByRole("status")).toContainText("Entwurf gespeichert");
  await expect(admin.page.getByText(/Entwurf zuletzt bearbeitet von admin@example\.com/)).toBeVisible();

  const preview = await admin.context.request.get(`${origin}/admin/content-preview?doc=faq/de`);
  expect(preview.status()).toBe(200);
  expect(preview.headers()["cache-control"]).toBe("private, no-store");
  expect(await preview.text()).toContain(FIRST);
  const previewPage = await admin.context.newPage();
  await previewPage.goto(`${origin}/admin/content-preview?doc=faq/de`);
  await expect(previewPage.getByText(FIRST)).toBeAttached();
  await previewPage.close();

  await visitor.page.goto(`${origin}/de/faq`);
  await expect(visitor.page.getByText(FIRST)).toHaveCount(0);

  await admin.page.goto(`${origin}/de/admin/content/faq/de`);
  await expect(firstAnswer(admin.page)).toHaveValue(FIRST);
  await admin.page.getByRole("button", { name: "Veröffentlichen" }).click();
  await expect(admin.page.getByRole("status")).toContainText("Veröffentlicht");
  await visitor.page.goto(`${origin}/de/faq`);
  await expect(visitor.page.getByText(FIRST)).toBeAttached();
});

test("the second browser's stale form meets the conflict view (409) and loses nothing", async () => {
  await firstAnswer(second.page).fill(SECOND);
  const [response] = await Promise.all([
    second.page.waitForResponse((res) => res.request().method() === "POST"),
    second.page.getByRole("button", { name: "Veröffentlichen" }).click(),
  ]);
  expect(response.status()).toBe(409);
  await expect(second.page.getByRole("heading", { name: "Ihr Text" })).toBeVisible();
  await expect(second.page.getByRole("heading", { name: "Deren Text" })).toBeVisible();
  const conflict = second.page.getByRole("alert");
  await expect(conflict).toContainText(SECOND);
  await expect(conflict).toContainText(FIRST);
  // What was typed is still in the form; publishing it now is a choice made knowing the other text.
  await expect(firstAnswer(second.page)).toHaveValue(SECOND);
  await visitor.page.goto(`${origin}/de/faq`);
  await expect(visitor.page.getByText(FIRST)).toBeAttached();
  await second.page.getByRole("button", { name: "Veröffentlichen" }).click();
  await visitor.page.goto(`${origin}/de/faq`);
  await expect(visitor.page.getByText(SECOND)).toBeAttached();
});

test("restore brings back the first text", async () => {
  await admin.page.goto(`${origin}/de/admin/content/faq/de`);
  const restore = admin.page.getByRole("button", { name: /^Revision #\d+ wiederherstellen$/ });
  await expect(restore).toHaveCount(1);
  await restore.click();
  await expect(admin.page.getByRole("status")).toContainText("wiederhergestellt");
  await visitor.page.goto(`${origin}/de/faq`);
  await expect(visitor.page.getByText(FIRST)).toBeAttached();
  await expect(visitor.page.getByText(SECOND)).toHaveCount(0);
});

test("the audit log lists every save, publish and restore", async () => {
  expect(contentAudit()).toEqual([
    "admin@example.com content-draft-saved locales/de/faq.json",
    "admin@example.com content-published locales/de/faq.json",
    "second@example.com content-published locales/de/faq.json",
    "admin@example.com content-restored locales/de/faq.json",
  ]);
});

test("an anonymous request with every preview parameter and cookie it can forge gets the public page", async () => {
  // A draft nobody published.
  await admin.page.goto(`${origin}/de/admin/content/faq/de`);
  await firstAnswer(admin.page).fill("Geheimer Entwurf.");
  await admin.page.getByRole("button", { name: "Entwurf speichern" }).click();
  await expect(admin.page.getByRole("status")).toContainText("Entwurf gespeichert");

  const forged = {
    cookie: "kestrel-staff=forged; kestrel-preview=1; preview=1; __prerender_bypass=1; draft=faq/de",
    "x-preview": "1",
    "x-kestrel-preview": "faq/de",
    "x-ghost-preview": "1",
  };
  for (const url of [
    `${origin}/de/faq?preview=1&draft=1&doc=faq/de&content-preview=1`,
    `${origin}/de/faq?doc=faq/de`,
    `${origin}/de/faq`,
  ]) {
    const res = await fetch(url, { headers: forged });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain("Geheimer Entwurf.");
    expect(html).toContain(FIRST);
  }
  const denied = await fetch(`${origin}/admin/content-preview?doc=faq/de&path=/de/faq`, {
    headers: forged,
    redirect: "manual",
  });
  expect(denied.status).toBe(303);
  expect(denied.headers.get("location")).toBe("/admin/sign-in");
  expect(await denied.text()).not.toContain("Geheimer Entwurf.");
  // And the cached public page stays public.
  const again = await (await fetch(`${origin}/de/faq`)).text();
  expect(again).not.toContain("Geheimer Entwurf.");
});

test("the room's pages are axe clean and fit 360 px", async () => {
  const page = admin.page;
  for (const url of [
    "/admin/content",
    "/de/admin/content/faq/de",
    "/admin/content/faq/en",
    "/ar/admin/content/legal/terms/ar",
  ]) {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 720 });
      await page.goto(`${origin}${url}`);
      const { violations } = await axeBuilder(page).analyze();
      expect(violations.map((v) => `${url} ${width}: ${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth),
        `${url} at ${width} px`,
      ).toBeLessThanOrEqual(width);
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
});
