import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { axeBuilder } from "../support/axe";
import { gotoHydrated } from "../support/hydration";
import { addStaffSession } from "../support/staff-sessions";
import { openStoreDatabase } from "../support/store-database";

// Status and incidents in the console (issue 35): an admin changes a product's status and runs an incident from
// publish to resolved; each change shows on /status, the incident's page and the feed at the very next request (the
// render cache is told, not waited out), is in the audit log with before and after, and is queued for the support
// channel. Support is refused; the forms work without JavaScript.

test.describe.configure({ mode: "serial" });

let server: AppServer;
let origin: string;
let adminToken: string;
let supportToken: string;
/** The admin's browser (JavaScript on) and a visitor's without JavaScript: what the server rendered, nothing else. */
let admin: { context: BrowserContext; page: Page };
let visitor: { context: BrowserContext; page: Page };

async function signedIn(browser: Browser, token: string) {
  const context = await browser.newContext();
  await context.addCookies([{ name: "kestrel-staff", value: token, url: origin }]);
  return { context, page: await context.newPage() };
}

test.beforeAll(async ({ browser }) => {
  server = await startAppServer({ env: { LOG_LEVEL: "silent" } });
  origin = `http://localhost:${server.port}`;
  adminToken = addStaffSession(server.dataDir, "admin@example.com", "admin");
  supportToken = addStaffSession(server.dataDir, "agent@example.com", "support");
  admin = await signedIn(browser, adminToken);
  const context = await browser.newContext({ javaScriptEnabled: false });
  visitor = { context, page: await context.newPage() };
});
test.afterAll(async () => {
  await admin?.context.close();
  await visitor?.context.close();
  await server?.stop();
});

function serviceRow(page: Page, name: string) {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
}

/** Loads /status twice, so the server holds a render of it (kept a second) when the change is made. */
async function primeStatusPage() {
  await visitor.page.goto(`${origin}/status`);
  await visitor.page.goto(`${origin}/status`);
}

async function feed(): Promise<string> {
  const res = await fetch(`${origin}/status/feed.xml`);
  expect(res.status).toBe(200);
  return res.text();
}

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

function statusAlerts(): string[] {
  const db = openStoreDatabase(server.dataDir);
  try {
    return (
      db
        .prepare("SELECT answers FROM support_requests WHERE category = 'Status Alert' ORDER BY created_at")
        .all() as Array<{
        answers: string;
      }>
    ).map((row) => (JSON.parse(row.answers) as string[])[0] ?? "");
  } finally {
    db.close();
  }
}

function incidentIdOf(title: string): number {
  const db = openStoreDatabase(server.dataDir);
  try {
    return (db.prepare("SELECT id FROM incidents WHERE title = ?").get(title) as { id: number }).id;
  } finally {
    db.close();
  }
}

const TITLE = "Licence activations slow";
const MESSAGE =
  "Activations take up to a minute.\nWe are **looking into it**: see [the notes](https://example.com/notes).";
const NOTES = "https://example.com/notes";
const LINK_REL = "nofollow noopener noreferrer";
let previewHtml = "";

test("an admin sets a product to maintenance: /status shows it at the next load", async () => {
  const { page } = admin;
  await gotoHydrated(page, `${origin}/admin/status`);
  await expect(page.getByRole("heading", { name: "Status and incidents" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Status" })).toBeVisible();
  await primeStatusPage();
  await expect(serviceRow(visitor.page, "Kestrel Vault")).toContainText("operational");

  const vault = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("combobox", { name: "Status of Kestrel Vault" }) });
  await vault.getByRole("combobox").selectOption("maintenance");
  await vault.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Kestrel Vault is now shown as Maintenance on the status page.");

  await visitor.page.goto(`${origin}/status`);
  await expect(serviceRow(visitor.page, "Kestrel Vault")).toContainText("maintenance");
  const api = (await (await fetch(`${origin}/api/status`)).json()) as {
    entries: Array<{ name: string; status: string }>;
  };
  expect(api.entries.find((e) => e.name === "Kestrel Vault")?.status).toBe("maintenance");

  expect(auditEntries("status-changed")).toEqual([
    { actor: "admin@example.com", target: "Kestrel Vault", detail: { before: "operational", after: "maintenance" } },
  ]);
  expect(statusAlerts()).toEqual(["Kestrel Vault is under maintenance"]);
});

test("a new incident's preview is the message as /status shows it, and Publish shows it everywhere at once", async () => {
  const { page } = admin;
  const form = page.getByRole("region", { name: "New incident" });
  await form.getByLabel("Title").fill(TITLE);
  await form.getByRole("checkbox", { name: "Kestrel Vault" }).check();
  await form.getByRole("combobox", { name: "State of the new incident" }).selectOption("identified");
  await form.getByLabel("Message").fill(MESSAGE);
  await expect(form.getByLabel("Message")).toHaveAccessibleDescription(
    "Markdown: **bold**, *italic*, [link](https://…), lists",
  );
  await form.getByRole("button", { name: "Preview" }).click();
  const preview = form.getByRole("region", { name: "Preview" });
  await expect(preview).toContainText("Activations take up to a minute.");
  // The Markdown as /status renders it: the bold as <strong>, the link as a link that passes no referrer.
  await expect(preview.locator("strong")).toHaveText("looking into it");
  await expect(preview.getByRole("link", { name: "the notes" })).toHaveAttribute("href", NOTES);
  await expect(preview.getByRole("link", { name: "the notes" })).toHaveAttribute("rel", LINK_REL);
  await expect(preview).not.toContainText("**");
  previewHtml = await preview.locator("div[dir=auto]").evaluate((p) => p.outerHTML);
  // What was typed stays for Publish.
  await expect(form.getByLabel("Title")).toHaveValue(TITLE);
  await expect(form.getByRole("checkbox", { name: "Kestrel Vault" })).toBeChecked();

  await primeStatusPage();
  const feedBefore = await feed();
  expect(feedBefore).not.toContain(TITLE);
  await form.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toHaveText(`Incident published: ${TITLE}.`);
  await expect(form.getByLabel("Title")).toHaveValue("");

  await visitor.page.goto(`${origin}/status`);
  const active = visitor.page.getByRole("region", { name: "Active incidents" });
  await expect(active.getByRole("link", { name: TITLE })).toBeVisible();
  await expect(active).toContainText("Affects: Kestrel Vault");
  expect(await active.locator("div[dir=auto]").evaluate((p) => p.outerHTML)).toBe(previewHtml);
  await expect(active.locator("strong")).toHaveText("looking into it");
  await expect(active.getByRole("link", { name: "the notes" })).toHaveAttribute("href", NOTES);
  const id = incidentIdOf(TITLE);
  await visitor.page.goto(`${origin}/status/incidents/${id}`);
  await expect(visitor.page.getByRole("heading", { name: TITLE })).toBeVisible();
  await expect(visitor.page.getByRole("main").locator("strong", { hasText: "looking into it" })).toBeVisible();
  await expect(visitor.page.getByRole("link", { name: "the notes" })).toHaveAttribute("href", NOTES);
  const published = await feed();
  expect(published).toContain(TITLE);
  expect(published).toContain("Identified");
  // The feed carries the same HTML, escaped once as Atom's type="html" content asks.
  expect(published).toContain("We are &lt;strong&gt;looking into it&lt;/strong&gt;: see ");
  expect(published).toContain(`&lt;a href=&quot;${NOTES}&quot; rel=&quot;${LINK_REL}&quot;&gt;the notes&lt;/a&gt;`);

  const [opened] = auditEntries("incident-opened");
  expect(opened).toMatchObject({
    actor: "admin@example.com",
    target: `incident ${id}`,
    detail: { before: null, after: { title: TITLE, status: "identified", products: ["Kestrel Vault"], body: MESSAGE } },
  });
  expect(statusAlerts()).toContain(`Incident opened (identified): ${TITLE}`);
});

test("an update and then the resolution, posted on the open incident, show at once", async () => {
  const { page } = admin;
  const id = incidentIdOf(TITLE);
  const incident = page.getByRole("form", { name: new RegExp(TITLE) });
  await incident.getByLabel("State").selectOption("monitoring");
  await incident.getByLabel("Message").fill("A fix is out; we are watching.");
  await primeStatusPage();
  await incident.getByRole("button", { name: "Post update" }).click();
  await expect(page.getByRole("status")).toHaveText(`Update posted: ${TITLE} is now Monitoring.`);
  await visitor.page.goto(`${origin}/status`);
  await expect(visitor.page.getByRole("region", { name: "Active incidents" })).toContainText(
    "A fix is out; we are watching.",
  );
  expect(await feed()).toContain("A fix is out; we are watching.");

  await incident.getByLabel("State").selectOption("resolved");
  await incident.getByLabel("Message").fill("Activations are instant again.");
  await primeStatusPage();
  await incident.getByRole("button", { name: "Post update" }).click();
  await expect(page.getByRole("status")).toHaveText(`Update posted: ${TITLE} is now Resolved.`);
  await expect(page.getByRole("region", { name: "Open incidents" })).toContainText("No open incidents.");
  await visitor.page.goto(`${origin}/status`);
  await expect(visitor.page.getByRole("region", { name: "Active incidents" })).toHaveCount(0);
  await expect(visitor.page.getByRole("region", { name: "Past incidents (14 days)" })).toContainText(TITLE);
  await visitor.page.goto(`${origin}/status/incidents/${id}`);
  await expect(visitor.page.getByText("Activations are instant again.")).toBeVisible();
  expect(await feed()).toContain("Activations are instant again.");

  expect(auditEntries("incident-updated")).toMatchObject([
    {
      actor: "admin@example.com",
      target: `incident ${id}`,
      detail: { before: { status: "identified", body: MESSAGE }, after: { status: "monitoring" } },
    },
  ]);
  expect(auditEntries("incident-resolved")).toMatchObject([
    {
      actor: "admin@example.com",
      detail: {
        before: { status: "monitoring", resolvedAt: null },
        after: { status: "resolved", body: "Activations are instant again." },
      },
    },
  ]);
  expect(statusAlerts()).toEqual([
    "Kestrel Vault is under maintenance",
    `Incident opened (identified): ${TITLE}`,
    `Incident update (monitoring): ${TITLE}`,
    `Incident resolved: ${TITLE}`,
  ]);
});

test("the page fits a 360 px phone and has no axe violations, with a preview and an open incident", async () => {
  const { page } = admin;
  await page.setViewportSize({ width: 360, height: 740 });
  await gotoHydrated(page, `${origin}/admin/status`);
  const form = page.getByRole("region", { name: "New incident" });
  await form.getByLabel("Title").fill("Checkout errors");
  await form.getByLabel("Message").fill("Some payments fail.");
  await form.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("status")).toHaveText("Incident published: Checkout errors.");
  await form.getByLabel("Title").fill("Draft");
  await form.getByLabel("Message").fill("A draft message.");
  await form.getByRole("button", { name: "Preview" }).click();
  await expect(form.getByRole("region", { name: "Preview" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const { violations } = await axeBuilder(page).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 720 });
});

function post(token: string, form: Record<string, string | string[]>, path = "/admin/status") {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form))
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  return fetch(`${origin}${path}`, {
    method: "POST",
    headers: {
      cookie: `kestrel-staff=${token}`,
      origin,
      "content-type": "application/x-www-form-urlencoded",
      accept: "text/html",
    },
    body: body.toString(),
    redirect: "manual",
  });
}

test("the forms work before JavaScript: a plain form POST saves, previews and publishes, and the page answers", async () => {
  await primeStatusPage();
  const saved = await post(adminToken, { intent: "status", product: "Kestrel Sandbox", status: "outage" });
  expect(saved.status).toBe(200);
  expect(saved.headers.get("cache-control")).toContain("no-store");
  expect(await saved.text()).toContain("Kestrel Sandbox is now shown as Outage on the status page.");
  await visitor.page.goto(`${origin}/status`);
  await expect(serviceRow(visitor.page, "Kestrel Sandbox")).toContainText("outage");

  const preview = await post(adminToken, {
    intent: "preview",
    title: "Downloads slow",
    products: ["Kestrel Sandbox", "Kestrel Studio"],
    status: "investigating",
    body: "Downloads <b>crawl</b>.",
  });
  expect(preview.status).toBe(200);
  const previewPage = await preview.text();
  expect(previewPage).toContain("Downloads &lt;b&gt;crawl&lt;/b&gt;.");
  expect(previewPage).toContain('value="Downloads slow"');

  const refused = await post(adminToken, { intent: "publish", title: "", status: "investigating", body: "x" });
  expect(refused.status).toBe(400);
  expect(await refused.text()).toContain("Give the incident a title of 1 to 200 characters.");

  const published = await post(adminToken, {
    intent: "publish",
    title: "Downloads slow",
    products: ["Kestrel Sandbox", "Kestrel Studio"],
    status: "investigating",
    body: "Downloads crawl.",
  });
  expect(published.status).toBe(200);
  expect(await published.text()).toContain("Incident published: Downloads slow.");
  expect(await feed()).toContain("Downloads slow");
  await visitor.page.goto(`${origin}/status`);
  await expect(
    visitor.page.getByRole("region", { name: "Active incidents" }).getByRole("link", { name: "Downloads slow" }),
  ).toBeVisible();
});

test("support gets 403 on /admin/status, for the page and every form, and changes nothing", async () => {
  const page = await fetch(`${origin}/admin/status`, {
    headers: { cookie: `kestrel-staff=${supportToken}`, accept: "text/html" },
    redirect: "manual",
  });
  expect(page.status).toBe(403);
  expect(await page.text()).toContain("You do not have access to this page");
  const before = auditEntries("status-changed").length;
  const forms: Array<Record<string, string>> = [
    { intent: "status", product: "Kestrel Vault", status: "outage" },
    { intent: "publish", title: "Nope", status: "investigating", body: "Nope." },
    { intent: "preview", title: "Nope", status: "investigating", body: "Nope." },
    { intent: "update", incident: String(incidentIdOf(TITLE)), status: "investigating", body: "Nope." },
  ];
  for (const form of forms) {
    const res = await post(supportToken, form);
    expect(res.status, form.intent).toBe(403);
  }
  expect(auditEntries("status-changed")).toHaveLength(before);
  const db = openStoreDatabase(server.dataDir);
  expect(db.prepare("SELECT count(*) AS n FROM incidents WHERE title = 'Nope'").get()).toEqual({ n: 0 });
  db.close();
  // Support's console has no Status room.
  const support = await fetch(`${origin}/admin`, { headers: { cookie: `kestrel-staff=${supportToken}` } });
  expect(await support.text()).not.toContain('href="/admin/status"');
});
