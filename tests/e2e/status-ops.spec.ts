import { expect, type Page, test } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { runCli } from "../support/cli";
import { openStoreDatabase } from "../support/store-database";

// Operators change /status from the command line while the server runs; one server and database for this file.
test.describe.configure({ mode: "serial" });

let server: AppServer;

test.beforeAll(async () => {
  server = await startAppServer();
});

test.afterAll(async () => {
  await server?.stop();
});

function serviceRow(page: Page, name: string) {
  return page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
}

/**
 * Refresh Status until `shown` passes: /status and /api/status each reuse one database read for up to a second, so a
 * change made within that second of the last read shows at the next refresh after it.
 */
async function refreshUntil(page: Page, shown: () => Promise<void>) {
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh Status" }).click();
    await expect(page.getByText("Successfully refreshed!").first()).toBeVisible({ timeout: 1_000 });
    await shown();
  }).toPass({ timeout: 10_000 });
}

test("a status set by the CLI appears after Refresh Status, without a restart or reload", async ({ page }) => {
  await page.goto(`${server.url}/status`);
  const vault = serviceRow(page, "Kestrel Vault");
  await expect(vault).toContainText("operational");
  // A first refresh would put /api/status (public, max-age=30) in the browser cache if the button used it.
  await page.getByRole("button", { name: "Refresh Status" }).click();
  await expect(page.getByText("Successfully refreshed!")).toBeVisible();

  await runCli(server.dataDir, "status", "set", "vault", "outage");
  await refreshUntil(page, () => expect(vault).toContainText("outage", { timeout: 500 }));
  // Today's bar turns to an outage with the change (the uptime is computed from the recorded history).
  await expect(
    page.getByRole("list", { name: "Kestrel Vault: daily uptime, last 90 days" }).getByRole("listitem").last(),
  ).toContainText("outage");
});

test("a status set by the CLI shows at the next page load", async ({ page }) => {
  await runCli(server.dataDir, "status", "set", "Kestrel Sandbox", "maintenance");
  // The server reuses one render of /status for at most a second; retry the load until it is past that.
  await expect(async () => {
    await page.goto(`${server.url}/status`);
    await expect(serviceRow(page, "Kestrel Sandbox")).toContainText("maintenance", { timeout: 500 });
  }).toPass({ timeout: 10_000 });
});

test("the incidents list appears only while an incident is open; a resolved one moves to Past incidents", async ({
  page,
}) => {
  await page.goto(`${server.url}/status`);
  const incidents = page.getByRole("heading", { name: "Active incidents" });
  await expect(incidents).toHaveCount(0);

  const added = JSON.parse(
    await runCli(
      server.dataDir,
      "incidents",
      "add",
      "--title",
      "Licence server slow",
      "--body",
      "Activations take up to a minute.",
      "--json",
    ),
  ) as { id: number };
  await refreshUntil(page, () => expect(incidents).toBeVisible({ timeout: 500 }));
  await expect(page.getByText("Licence server slow")).toBeVisible();
  await expect(page.getByText("Activations take up to a minute.")).toBeVisible();

  await runCli(server.dataDir, "incidents", "resolve", String(added.id));
  await refreshUntil(page, () => expect(incidents).toHaveCount(0, { timeout: 500 }));
  await expect(
    page.getByRole("region", { name: "Past incidents (14 days)" }).getByRole("link", { name: "Licence server slow" }),
  ).toBeVisible();
});

test("an unknown stored status shows as unknown, in the legend's colour", async ({ page }) => {
  // The CLI refuses unknown values; a hand-edited database can still hold one.
  const db = openStoreDatabase(server.dataDir);
  try {
    db.prepare("UPDATE status_entries SET status = ? WHERE name = ?").run("exploded", "Kestrel Studio");
  } finally {
    db.close();
  }
  await page.goto(`${server.url}/status`);
  const studio = serviceRow(page, "Kestrel Studio");
  await refreshUntil(page, () => expect(studio).toContainText("unknown", { timeout: 500 }));
  await expect(studio).not.toContainText("exploded");

  const colourOfDot = (scope: ReturnType<Page["locator"]>) =>
    scope
      .locator("[aria-hidden='true']")
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
  const legendUnknown = page
    .getByRole("region", { name: "Legend" })
    .getByRole("listitem")
    .filter({ hasText: "Unknown" });
  expect(await colourOfDot(studio.getByText("unknown"))).toBe(await colourOfDot(legendUnknown));
  expect(await colourOfDot(studio.getByText("unknown"))).not.toBe(
    await colourOfDot(serviceRow(page, "Kestrel Capture").getByText("operational")),
  );
});
