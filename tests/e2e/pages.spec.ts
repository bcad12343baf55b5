import { expect, type Page, test } from "@playwright/test";
import { axeBuilder, WCAG_TAGS } from "../support/axe";

import { type AppServer, startAppServer } from "../support/app-server";
import { openStoreDatabase } from "../support/store-database";

const COMMUNITY_URL = "https://chat.example.com/kestrel";

async function expectNoAxeViolations(page: Page) {
  const results = await axeBuilder(page).withTags(WCAG_TAGS).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
}

const h1 = (page: Page, name: string | RegExp) => page.getByRole("heading", { level: 1, name });

test.describe("every content page renders its key texts, title and canonical link", () => {
  const pages: Array<{ path: string; heading: string; title: RegExp; texts: string[] }> = [
    {
      path: "/faq",
      heading: "Frequently Asked Questions",
      title: /^FAQ \| Kestrel Software$/,
      texts: [
        "Can I use one licence on more than one device?",
        "Can I get a refund?",
        "Which payment methods do you accept?",
      ],
    },
    {
      path: "/docs",
      heading: "Documentation",
      title: /Docs \| Kestrel Software$/,
      texts: ["Kestrel Vault troubleshooting", "Activation Failed", "Additional resources"],
    },
    {
      path: "/downloads",
      heading: "Downloads",
      title: /^Downloads \| Kestrel Software$/,
      texts: ["Kestrel Vault", "Requirements", "What's new"],
    },
    {
      path: "/reseller",
      heading: "Reseller Program",
      title: /^Reseller Program \| Kestrel Software$/,
      texts: ["Reseller Starter", "Reseller Pro", "Single Key Purchase", "Bulk Key Purchase"],
    },
    {
      path: "/status",
      heading: "System Status",
      title: /^System Status \| Kestrel Software$/,
      texts: ["Last Refreshed:", "Kestrel Vault", "Legend"],
    },
    { path: "/reviews", heading: "Customer Reviews", title: /^Customer Reviews \| Kestrel Software$/, texts: [] },
    {
      path: "/terms",
      heading: "Terms of Service",
      title: /^Terms of Service \| Kestrel Software$/,
      texts: ["Last updated:", "One licence is valid for one device at a time."],
    },
    {
      path: "/privacy",
      heading: "Privacy Policy",
      title: /^Privacy Policy \| Kestrel Software$/,
      texts: ["Last updated:", "Data we collect"],
    },
    {
      path: "/refund",
      heading: "Refund Policy",
      title: /^Refund Policy \| Kestrel Software$/,
      texts: ["Last updated:", "The 24-hour window"],
    },
    {
      path: "/dmca",
      heading: "DMCA Policy",
      title: /^DMCA Policy \| Kestrel Software$/,
      texts: ["Last updated:", "Counter-notices"],
    },
  ];
  for (const { path: route, heading, title, texts } of pages) {
    test(`${route} shows "${heading}"`, async ({ page, baseURL }) => {
      const response = await page.goto(route);
      expect(response?.status()).toBe(200);
      await expect(h1(page, heading)).toBeVisible();
      for (const text of texts) await expect(page.getByText(text, { exact: false }).first()).toBeVisible();
      await expect(page).toHaveTitle(title);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{20,}/);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        "href",
        new RegExp(`^${baseURL}${route.replace("?", "\\?")}`),
      );
    });
  }
});

test.describe("FAQ", () => {
  const questions = (page: Page) => page.locator("details[name=faq]");

  test("includes the licence, refund and payment answers", async ({ page }) => {
    await page.goto("/faq");
    await page.getByText("Can I use one licence on more than one device?").click();
    await expect(page.getByText("Each licence key is valid for one device at a time.")).toBeVisible();
    await page.getByText("Can I get a refund?").click();
    await expect(
      page.getByText("Refunds are only issued if our support team cannot resolve your issue."),
    ).toBeVisible();
    await page.getByText("Which payment methods do you accept?").click();
    await expect(
      page.getByText("You can pay with crypto, cards and other methods through our hosted shop checkout."),
    ).toBeVisible();
  });

  test("keeps one item open at a time", async ({ page }) => {
    await page.goto("/faq");
    await expect(questions(page).and(page.locator("[open]"))).toHaveCount(0);
    await page.getByText("Can I get a refund?").click();
    await expect(questions(page).nth(1)).toHaveAttribute("open", "");
    await page.getByText("Which payment methods do you accept?").click();
    await expect(questions(page).nth(2)).toHaveAttribute("open", "");
    await expect(questions(page).nth(1)).not.toHaveAttribute("open", "");
    await expect(page.locator("details[name=faq][open]")).toHaveCount(1);
  });

  test("opens and closes with the keyboard", async ({ page }) => {
    await page.goto("/faq");
    await page.locator("details[name=faq] > summary").first().focus();
    await page.keyboard.press("Enter");
    await expect(questions(page).first()).toHaveAttribute("open", "");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Space");
    await expect(questions(page).nth(1)).toHaveAttribute("open", "");
    await expect(page.locator("details[name=faq][open]")).toHaveCount(1);
    await page.keyboard.press("Enter");
    await expect(page.locator("details[name=faq][open]")).toHaveCount(0);
  });

  test("opens the question named in the URL hash", async ({ page }) => {
    await page.goto("/faq#refunds");
    await expect(page.locator("details#refunds")).toHaveAttribute("open", "");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("still keeps one item open at a time", async ({ page }) => {
      await page.goto("/faq");
      await page.getByText("Can I get a refund?").click();
      await expect(
        page.getByText("Refunds are only issued if our support team cannot resolve your issue."),
      ).toBeVisible();
      await page.getByText("Which payment methods do you accept?").click();
      await expect(page.locator("details[name=faq][open]")).toHaveCount(1);
      await expect(
        page.getByText("Refunds are only issued if our support team cannot resolve your issue."),
      ).toBeHidden();
    });
  });
});

test.describe("docs", () => {
  const entries = (page: Page) => page.getByRole("main").getByRole("article");
  const selector = (page: Page) => page.getByRole("navigation", { name: "Choose a product" });

  test("offers every product and shows Kestrel Vault's three entries first", async ({ page }) => {
    await page.goto("/docs");
    await expect(selector(page).getByRole("link")).toHaveText([
      "Kestrel Vault",
      "Kestrel Sandbox",
      "Kestrel Capture",
      "Kestrel Capture Ultimate",
      "Kestrel Studio",
      "Preset Packs",
    ]);
    await expect(selector(page).getByRole("link", { name: "Kestrel Vault" })).toHaveAttribute("aria-current", "page");
    await expect(entries(page)).toHaveCount(3);
    await expect(entries(page).getByRole("heading", { level: 3 })).toHaveText([
      "Activation Failed",
      "Features Not Working",
      "App Crashing",
    ]);
    const activation = entries(page).first();
    await expect(activation.getByText("error", { exact: true })).toBeVisible();
    await expect(activation.getByText(/Run as administrator/)).toBeVisible();
    await expect(entries(page).nth(1).getByText("warning", { exact: true })).toBeVisible();
  });

  test("selecting a product updates the URL and the entries", async ({ page }) => {
    await page.goto("/docs");
    await selector(page).getByRole("link", { name: "Kestrel Capture", exact: true }).click();
    await expect(page).toHaveURL(/\/docs\?product=capture$/);
    await expect(page.getByRole("heading", { name: "Kestrel Capture troubleshooting" })).toBeVisible();
    await expect(entries(page)).toHaveCount(2);
    await expect(selector(page).getByRole("link", { name: "Kestrel Capture", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await selector(page).getByRole("link", { name: "Preset Packs" }).click();
    await expect(page).toHaveURL(/\/docs\?product=preset-packs$/);
    await expect(entries(page)).toHaveCount(2);
    await expect(entries(page).getByRole("heading", { level: 3 })).toHaveText([
      "Pack Will Not Import",
      "Custom Pack Not Received",
    ]);
    await expect(entries(page).first().getByText("error", { exact: true })).toBeVisible();
    await expect(entries(page).nth(1).getByText("warning", { exact: true })).toBeVisible();
  });

  test("labels each entry with its type, as the content lists them", async ({ page }) => {
    const expected: Record<string, string[]> = {
      vault: ["error", "warning", "error"],
      sandbox: ["error", "warning"],
      capture: ["error", "info"],
      "capture-ultimate": ["warning", "info"],
      studio: ["error", "warning"],
      "preset-packs": ["error", "warning"],
    };
    for (const [product, types] of Object.entries(expected)) {
      await page.goto(`/docs?product=${product}`);
      await expect(entries(page), product).toHaveCount(types.length);
      for (const [i, type] of types.entries())
        await expect(entries(page).nth(i).getByText(type, { exact: true }), `${product} entry ${i + 1}`).toBeVisible();
    }
  });

  test("shows Additional resources links", async ({ page }) => {
    await page.goto("/docs?product=studio");
    const resources = page.getByRole("region", { name: "Additional resources" });
    await expect(resources.getByRole("link", { name: /Downloads/ })).toHaveAttribute("href", "/downloads");
    await expect(resources.getByRole("link", { name: /Community/ })).toHaveAttribute("target", "_blank");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the selector still works as links", async ({ page }) => {
      await page.goto("/docs");
      await selector(page).getByRole("link", { name: "Kestrel Studio" }).click();
      await expect(page).toHaveURL(/\/docs\?product=studio$/);
      await expect(page.getByRole("heading", { name: "Kestrel Studio troubleshooting" })).toBeVisible();
      await expect(entries(page)).toHaveCount(2);
    });
  });
});

test.describe("downloads", () => {
  test("lists six releases with version, status, requirements and changelog", async ({ page }) => {
    await page.goto("/downloads");
    const cards = page.getByRole("main").getByRole("article");
    await expect(cards).toHaveCount(6);
    await expect(cards.getByRole("heading", { level: 2 })).toHaveText([
      "Kestrel Vault",
      "Kestrel Sandbox",
      "Kestrel Capture",
      "Kestrel Capture Ultimate",
      "Kestrel Studio",
      "Preset Packs",
    ]);
    await expect(cards.first().getByText(/^Version 3\.4\.2 · /)).toBeVisible();
    for (const status of ["stable", "beta"])
      await expect(page.getByText(status, { exact: true }).first()).toBeVisible();
    // Signed out, every buyers-only file says what its button does: no alert, no dead button (issue 45).
    await expect(page.getByRole("link", { name: "Sign in to download" })).toHaveCount(6);
    await expect(page.getByRole("button", { name: /^Download / })).toHaveCount(0);
  });

  test("Sign in to download goes to /orders, to come back to the same file", async ({ page }) => {
    await page.goto("/downloads");
    const studio = page.getByRole("article", { name: "Kestrel Studio" });
    await expect(studio.getByText(/^[0-9a-f]{64}$/)).toBeVisible();
    await expect(studio.getByRole("link", { name: "Sign in to download" })).toHaveAttribute(
      "href",
      `/orders?next=${encodeURIComponent("/downloads/studio/4.2.1/Kestrel-Studio-4.2.1-x64-setup.exe")}`,
    );
  });
});

test.describe("reseller", () => {
  test("shows the four plans with their exact prices", async ({ page }) => {
    await page.goto("/reseller");
    const plan = (name: string) => page.getByRole("article", { name });
    await expect(plan("Reseller Starter").getByText("$175/month", { exact: true })).toBeVisible();
    await expect(plan("Reseller Pro").getByText("$250", { exact: true })).toBeVisible();
    await expect(plan("Reseller Pro").getByText("First month, then $175/month.")).toBeVisible();
    await expect(plan("Reseller Pro").getByText("Custom-branded installer")).toBeVisible();
    await expect(plan("Single Key Purchase").getByText("$60", { exact: true })).toBeVisible();
    await expect(plan("Single Key Purchase").getByText("50% off site products").first()).toBeVisible();
    await expect(plan("Bulk Key Purchase").getByText("Custom", { exact: true }).first()).toBeVisible();
    await expect(plan("Bulk Key Purchase").getByText("10+ keys = 50% off the whole purchase.")).toBeVisible();
    for (const name of ["Reseller Starter", "Reseller Pro", "Single Key Purchase", "Bulk Key Purchase"]) {
      await expect(plan(name).getByText("Priority support")).toBeVisible();
      await expect(plan(name).getByText("Unlimited key generation for the panels")).toBeVisible();
    }
  });

  test("Get Started opens the community link in a new tab", async ({ page }) => {
    await page
      .context()
      .route(`${COMMUNITY_URL}**`, (route) =>
        route.fulfill({ status: 200, contentType: "text/html", body: "<title>Community</title>" }),
      );
    await page.goto("/reseller");
    const getStarted = page.getByRole("link", { name: /^Get Started with Reseller Pro/ });
    await expect(getStarted).toHaveAttribute("rel", "noopener noreferrer");
    const [popup] = await Promise.all([page.context().waitForEvent("page"), getStarted.click()]);
    await expect(popup).toHaveURL(COMMUNITY_URL);
  });
});

test.describe("purchase success", () => {
  test("still shows the success view without an order_id", async ({ page }) => {
    await page.goto("/purchase/success");
    await expect(h1(page, "Thank you for your purchase!")).toBeVisible();
    await expect(page.getByText("Completed", { exact: true })).toBeVisible();
    await expect(page.getByText("Order number")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Continue Shopping" })).toHaveAttribute("href", "/products");
    await page.getByRole("link", { name: "Go to Downloads" }).click();
    await expect(page).toHaveURL(/\/downloads$/);
  });
  // Order lookups (order number, Completed/Pending/not found) are pinned by the checkout specs, which create real orders.
});

test.describe("status", () => {
  test("shows summary cards, one row per entry and the legend", async ({ page }) => {
    await page.goto("/status");
    const card = (label: string) =>
      page
        .getByRole("definition")
        .filter({ has: page.locator(`xpath=preceding-sibling::dt[normalize-space()="${label}"]`) });
    await expect(card("Products")).toHaveText("5");
    // Computed from the demo history (content/status-history.demo.json), not typed.
    await expect(card("Average Uptime")).toHaveText("99.66%");
    await expect(card("Active Users")).toHaveText("2700+");
    await expect(card("License Servers")).toHaveText("ONLINE");
    const rows = page.getByRole("table").getByRole("row");
    await expect(rows).toHaveCount(6);
    await expect(page.getByRole("row", { name: /Kestrel Vault/ })).toContainText("operational");
    await expect(page.getByRole("row", { name: /Kestrel Vault/ })).toContainText("99.90%");
    const legend = page.getByRole("region", { name: "Legend" });
    for (const label of ["Operational", "Maintenance", "Outage", "Unknown"])
      await expect(legend.getByText(label, { exact: true })).toBeVisible();
  });

  test("hides the incidents list when there are no incidents", async ({ page }) => {
    await page.goto("/status");
    await expect(page.getByRole("heading", { name: "System Status" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Active incidents" })).toHaveCount(0);
  });

  test("Refresh Status re-fetches, toasts Successfully refreshed! and updates Last Refreshed", async ({ page }) => {
    await page.goto("/status");
    const stamp = page.getByText("Last Refreshed:").locator("time");
    const before = await stamp.getAttribute("datetime");
    const refetch = page.waitForResponse((r) => r.url().endsWith("/api/status") && r.status() === 200);
    await page.getByRole("button", { name: "Refresh Status" }).click();
    await refetch;
    const toast = page.getByText("Successfully refreshed!");
    await expect(toast).toBeVisible();
    await expect(stamp).not.toHaveAttribute("datetime", before ?? "");
    await expect(toast).toBeHidden({ timeout: 10_000 });
  });

  test("Contact Support opens the support chat", async ({ page }) => {
    await page.goto("/status");
    await page.getByRole("button", { name: "Contact Support" }).click();
    await expect(page.getByRole("button", { name: "Open support chat" })).toHaveAttribute("aria-expanded", "true");
  });

  test("GET /api/status answers entries, summary and incidents, cacheable for 30 s", async ({ request }) => {
    const response = await request.get("/api/status");
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toBe("public, max-age=30");
    const body = await response.json();
    expect(body.summary).toEqual({
      products: 5,
      averageUptime: "99.66",
      activeUsers: "2700+",
      licenseServers: "ONLINE",
    });
    expect(body.entries).toHaveLength(5);
    expect(body.entries[0]).toMatchObject({
      name: "Kestrel Vault",
      status: "operational",
      uptime: "99.90",
      days: expect.stringMatching(/^[omx-]{90}$/),
    });
    expect(body.incidents).toEqual([]);
    expect(body.recentIncidents).toHaveLength(3);
  });
});

test.describe("status with an open incident", () => {
  let server: AppServer;

  test.beforeAll(async () => {
    server = await startAppServer();
    // The operator CLI writes to the same table; writing it directly keeps this spec independent of the CLI.
    const db = openStoreDatabase(server.dataDir);
    db.prepare("INSERT INTO incidents (title, body, started_at, resolved_at) VALUES (?, ?, ?, NULL)").run(
      "Licence server delays",
      "Activations may take a few minutes.",
      new Date().toISOString(),
    );
    db.prepare("INSERT INTO incidents (title, body, started_at, resolved_at) VALUES (?, ?, ?, ?)").run(
      "Old resolved incident",
      "Fixed.",
      "2026-01-01T00:00:00.000Z",
      "2026-01-01T01:00:00.000Z",
    );
    db.close();
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("shows open incidents only", async ({ page }) => {
    await page.goto(`${server.url}/status`);
    const incidents = page.getByRole("region", { name: "Active incidents" });
    await expect(incidents).toBeVisible();
    await expect(incidents.getByRole("heading", { name: "Licence server delays" })).toBeVisible();
    await expect(incidents.getByText("Activations may take a few minutes.")).toBeVisible();
    await expect(page.getByText("Old resolved incident")).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});

test.describe("not found", () => {
  test("unknown pages answer 404 with Oops! Page not found and a way home", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(h1(page, "Oops! Page not found")).toBeVisible();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("unknown routes answer HTTP 404 to plain requests", async ({ request }) => {
    for (const route of ["/this-page-does-not-exist", "/docs/extra", "/terms/old"])
      expect((await request.get(route)).status(), route).toBe(404);
  });
});

test.describe("accessibility (axe-core)", () => {
  // Each page's own path is axe-checked, with the same tags, by the route sweep's one visit (route-sweep.spec.ts);
  // here only what that sweep does not visit: a chosen product's docs and the not-found page.
  for (const route of ["/docs?product=capture", "/no/such/page"]) {
    test(`finds no violations on ${route}`, async ({ page }) => {
      await page.goto(route);
      await page.waitForLoadState("networkidle");
      await expectNoAxeViolations(page);
    });
  }

  test("finds no violations with an FAQ item open and on a phone-sized screen", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/faq");
    await page.getByText("Can I get a refund?").click();
    await expectNoAxeViolations(page);
  });
});
