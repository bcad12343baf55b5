import fs from "node:fs";
import path from "node:path";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { axeBuilder } from "../support/axe";
import { runCli } from "../support/cli";
import { addStaffSession } from "../support/staff-sessions";
import { auditLines } from "../support/store-database";

// The console's Releases room (issue 45): support gets 403; an admin sees a draft a build pipeline added, publishes
// it and it shows on /downloads, then yanks it and it is gone; the page is axe clean. The sessions are put in the
// database (as console-content.spec.ts does); the passkey ceremony is console-door's.
// Not yet here: the "New release" upload form with its progress bar (see the branch's report).

test.describe.configure({ mode: "serial" });

let server: AppServer;
let origin: string;
let supportToken: string;
let admin: { context: BrowserContext; page: Page };

const FILE = "sandbox-9.0.0.zip";
const DOWNLOAD = `/downloads/sandbox/9.0.0/${FILE}`;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(90_000);
  server = await startAppServer({ env: { LOG_LEVEL: "silent" } });
  origin = `http://localhost:${server.port}`;
  const adminToken = addStaffSession(server.dataDir, "admin@example.com", "admin");
  supportToken = addStaffSession(server.dataDir, "agent@example.com", "support");
  const file = path.join(server.dataDir, FILE);
  fs.writeFileSync(file, "an installer for the console's releases room\n".repeat(100));
  await runCli(
    server.dataDir,
    "releases",
    "add",
    "--product",
    "sandbox",
    "--version",
    "9.0.0",
    "--platform",
    "any",
    "--file",
    file,
    "--anyone",
  );
  const context = await browser.newContext();
  await context.addCookies([{ name: "kestrel-staff", value: adminToken, url: origin }]);
  admin = { context, page: await context.newPage() };
});
test.afterAll(async () => {
  await admin?.context.close();
  await server?.stop();
});

const releaseAudit = () => auditLines(server.dataDir, "release-");

test("support gets 403 in the Releases room, for the page and for a change", async () => {
  const cookie = `kestrel-staff=${supportToken}`;
  expect((await fetch(`${origin}/admin/releases`, { headers: { cookie } })).status).toBe(403);
  const post = await fetch(`${origin}/admin/releases`, {
    method: "POST",
    headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "publish", product: "446891", version: "9.0.0" }).toString(),
  });
  expect(post.status).toBe(403);
});

test("an admin publishes a draft and /downloads shows it; yanked, it is gone; the room is axe clean", async ({
  browser,
}) => {
  const { page } = admin;
  await page.goto(`${origin}/admin/releases`);
  await expect(page.getByRole("heading", { level: 1, name: "Releases" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Releases" })).toHaveAttribute("aria-current", "page");
  const row = page.getByRole("row", { name: /^9\.0\.0/ });
  await expect(row).toContainText("Draft");
  await expect(row).toContainText(FILE);
  await expect(row).toContainText(/SHA-256 [0-9a-f]{64}/);
  const { violations } = await axeBuilder(page).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);

  const visitor = await browser.newContext({ javaScriptEnabled: false });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`${origin}/downloads`);
  await expect(visitorPage.locator(`a[href="${DOWNLOAD}"]`)).toHaveCount(0);

  await page.getByRole("button", { name: "Publish 9.0.0" }).click();
  await expect(page.getByRole("status")).toContainText("9.0.0 is published");
  await expect(row).toContainText("Published");
  await visitorPage.goto(`${origin}/downloads`);
  await expect(visitorPage.locator(`a[href="${DOWNLOAD}"]`).first()).toBeVisible();

  await page.getByRole("button", { name: "Yank 9.0.0" }).click();
  await expect(page.getByRole("status")).toContainText("9.0.0 is withdrawn");
  await expect(row).toContainText("Withdrawn (yanked)");
  await visitorPage.goto(`${origin}/downloads`);
  await expect(visitorPage.locator(`a[href="${DOWNLOAD}"]`)).toHaveCount(0);
  await visitor.close();

  expect(releaseAudit()).toEqual(
    expect.arrayContaining([
      "admin@example.com release-published release sandbox 9.0.0",
      "admin@example.com release-yanked release sandbox 9.0.0",
    ]),
  );
});
