import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { axeBuilder } from "../support/axe";
import { type AppServer, startAppServer } from "../support/app-server";
import { runCli } from "../support/cli";
import { gotoHydrated } from "../support/hydration";
import { addAuthenticator, removeAuthenticator, setupLinkIn } from "../support/virtual-authenticator";

// The console's door (issue 34) in Chromium with its virtual authenticator (DevTools WebAuthn domain): the CLI's link
// makes the first owner's passkey, sign-out and sign-in with it, an invited support person on another browser, a
// removed person signed out at once, a second passkey and the first removed, and the audit log of all of it.

// A CLI run, two passkey ceremonies and axe per step: a loaded machine took 54 s for the first test (no speed is promised).
test.describe.configure({ mode: "serial", timeout: 90_000 });

let server: AppServer;
/** The console as a browser sees it: on `localhost`, the relying party PUBLIC_URL names. */
let origin: string;

test.beforeAll(async () => {
  server = await startAppServer();
  origin = `http://localhost:${server.port}`;
});
test.afterAll(async () => {
  await server?.stop();
});

async function expectNoAxeViolations(page: Page) {
  const { violations } = await axeBuilder(page).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
}

let owner: { context: BrowserContext; page: Page; authenticator: string };
let ownerLink: string;

test("a fresh shop's sign-in page names the command that creates the first owner", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await gotoHydrated(page, `${origin}/admin`);
  await expect(page).toHaveURL(`${origin}/admin/sign-in`);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to the console" })).toBeVisible();
  await expect(page.getByText("npm run cli -- staff invite you@example.com --role owner")).toBeVisible();
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await context.close();
});

test("the CLI's setup link creates the owner's passkey and signs them in; replayed, it is refused", async ({
  browser,
}) => {
  ownerLink = setupLinkIn(
    await runCli(
      { dataDir: server.dataDir, env: { PUBLIC_URL: origin } },
      "staff",
      "invite",
      "owner@example.com",
      "--role",
      "owner",
    ),
  );
  expect(ownerLink).toMatch(new RegExp(`^${origin}/admin/setup\\?token=[A-Za-z0-9_-]{43}$`));
  const context = await browser.newContext();
  const page = await context.newPage();
  const authenticator = await addAuthenticator(page);
  owner = { context, page, authenticator };
  await gotoHydrated(page, ownerLink);
  // The token is spent and gone from the address bar.
  await expect(page).toHaveURL(`${origin}/admin/setup`);
  await expect(page.getByRole("heading", { level: 1, name: "Create a passkey" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Create a passkey" }).click();
  await expect(page).toHaveURL(`${origin}/admin`);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByText("Paid orders").first()).toBeVisible();
  // One passkey: reminded once per session.
  await expect(page.getByRole("note")).toContainText("You have one passkey");
  await expectNoAxeViolations(page);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("note")).toHaveCount(0);

  const replay = await browser.newContext();
  const again = await replay.newPage();
  await gotoHydrated(again, ownerLink);
  await expect(again.getByRole("heading", { level: 1, name: "This setup link does not work" })).toBeVisible();
  await expect(again.getByText("It was already used.")).toBeVisible();
  await replay.close();
});

test("signed out, the owner signs in again with the passkey", async () => {
  const { page } = owner;
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(`${origin}/admin/sign-in?signed-out=1`);
  await expect(page.getByRole("status").filter({ hasText: "You are signed out." })).toBeVisible();
  await gotoHydrated(page, `${origin}/admin/staff`);
  await expect(page).toHaveURL(`${origin}/admin/sign-in`);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page).toHaveURL(`${origin}/admin`);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});

let support: { context: BrowserContext; page: Page };

test("an owner invites a support person, who signs in on another browser and may not see staff or the audit log", async ({
  browser,
}) => {
  const { page } = owner;
  await gotoHydrated(page, `${origin}/admin/staff`);
  await expectNoAxeViolations(page);
  await page.getByLabel("Email").fill("agent@example.com");
  await page.getByLabel("Role", { exact: true }).selectOption("support");
  await page.getByRole("button", { name: "Invite", exact: true }).click();
  const linkField = page.getByRole("textbox", { name: "Setup link" });
  await expect(linkField).toHaveValue(new RegExp(`^${origin}/admin/setup\\?token=`));
  const link = await linkField.inputValue();
  await expectNoAxeViolations(page);

  const context = await browser.newContext();
  const agent = await context.newPage();
  await addAuthenticator(agent);
  support = { context, page: agent };
  await gotoHydrated(agent, link);
  await agent.getByRole("button", { name: "Create a passkey" }).click();
  await expect(agent.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  // Support answers the inbox and looks orders up (issue 35), nothing of staff, audit, status or deliveries.
  await expect(agent.getByRole("navigation", { name: "Console" }).getByRole("link")).toHaveText([
    "Dashboard",
    "Support inbox",
    "Orders",
    "Your account",
  ]);
  for (const path of ["/admin/staff", "/admin/audit"]) {
    const response = await agent.goto(`${origin}${path}`);
    expect(response?.status()).toBe(403);
    await expect(agent.getByRole("heading", { level: 1, name: "You do not have access to this page" })).toBeVisible();
  }
  await expectNoAxeViolations(agent);
  const csv = await agent.request.get(`${origin}/admin/audit.csv`);
  expect(csv.status()).toBe(403);
});

test("a second passkey, then the first removed; the last one cannot be", async () => {
  const { page } = owner;
  await gotoHydrated(page, `${origin}/admin/account`);
  await expect(page.getByRole("heading", { level: 2, name: "Your passkeys" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Remove / })).toHaveCount(0);
  // A signed-in session alone adds no passkey (issue 42): not from the page, not by asking the endpoint itself.
  await expect(page.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
  const unproved = await page.request.post(`${origin}/api/admin/passkeys/register/options`, {
    headers: { origin, "content-type": "application/json" },
    data: {},
  });
  expect(unproved.status()).toBe(403);
  expect(await unproved.json()).toEqual({ error: "Confirm with one of your passkeys first." });
  // First a ceremony with the passkey this account has.
  await page.getByRole("button", { name: "Confirm with a passkey" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Confirmed. Add the new passkey within 5 minutes." }),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  // The second passkey lives on another device: this browser's first authenticator goes, a new one comes.
  await removeAuthenticator(page, owner.authenticator);
  owner.authenticator = await addAuthenticator(page);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey added." })).toBeVisible();
  const names = page.getByRole("listitem").getByRole("textbox", { name: "Name" });
  await expect(names).toHaveCount(2);
  await names.first().fill("Old laptop");
  await page.getByRole("button", { name: "Rename" }).first().click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey renamed to Old laptop." })).toBeVisible();
  await page.getByRole("button", { name: "Remove Old laptop" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passkey Old laptop removed." })).toBeVisible();
  await expect(names).toHaveCount(1);
  await expectNoAxeViolations(page);
  // Signing in again uses the new passkey.
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(`${origin}/admin/sign-in?signed-out=1`);
  await gotoHydrated(page, `${origin}/admin/sign-in`);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
});

test("a removed person is signed out at once; the last owner cannot be removed", async () => {
  const { page } = owner;
  await gotoHydrated(page, `${origin}/admin/staff`);
  await page.getByRole("button", { name: "Remove agent@example.com" }).click();
  await expect(page.getByRole("status").filter({ hasText: "agent@example.com was removed" })).toBeVisible();
  await support.page.goto(`${origin}/admin`);
  await expect(support.page).toHaveURL(`${origin}/admin/sign-in`);
  await page.getByRole("button", { name: "Remove owner@example.com" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "The last owner cannot be removed or made anything else. Make someone else an owner first.",
  );
  await support.context.close();
});

test("every console page fits a 360 px phone without sideways scrolling", async () => {
  const { page } = owner;
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of ["/admin", "/admin/staff", "/admin/account", "/admin/audit"]) {
    await gotoHydrated(page, `${origin}${path}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, path).toBeLessThanOrEqual(360);
  }
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 720 });
});

test("the audit log lists all of it, filtered and as CSV", async () => {
  const { page } = owner;
  await gotoHydrated(page, `${origin}/admin/audit`);
  const actions = page.getByRole("table").getByRole("row").locator("td:nth-child(3)");
  const listed = await actions.allTextContents();
  for (const action of [
    "staff-invited",
    "setup-link-used",
    "setup-link-refused",
    "passkey-added",
    "sign-in",
    "sign-out",
    "passkey-renamed",
    "passkey-removed",
    "staff-removed",
  ])
    expect(listed).toContain(action);
  await expectNoAxeViolations(page);
  await page.getByLabel("Action").selectOption("staff-removed");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=staff-removed/);
  await expect(actions).toHaveText(["staff-removed"]);
  await expect(page.getByRole("table").getByRole("row").nth(1)).toContainText("agent@example.com");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await (await download).path();
  const csv = (await import("node:fs")).readFileSync(file, "utf8").trim().split("\r\n");
  expect(csv[0]).toBe("time,actor,action,target,detail,client_address,user_agent,session");
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain(",owner@example.com,staff-removed,agent@example.com,");
  // The CLI's own entries name it.
  const cli = await page.request.get(`${origin}/admin/audit.csv?actor=cli`);
  expect(await cli.text()).toContain(",cli,staff-invited,owner@example.com,");
  await owner.context.close();
});
