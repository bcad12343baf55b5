import { expect, type Page, test } from "@playwright/test";
import { axeBuilder, WCAG_TAGS } from "../support/axe";
import { SUPPORT_QUESTIONS } from "~/features/support-chat/support-chat";
import { type ChatWebhookReceiver, startChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
import { type AppServer, startAppServer } from "../support/app-server";
import { demoVaultOutageBarIndex } from "../support/demo-status";
import { gotoHydrated } from "../support/hydration";

// The status page and the support chat in other languages: the page's language in <html>, its content and formats,
// links that stay in it, the operator's text marked as theirs, and a chat that reaches the team in English.

/** The summary card labelled `label` (in the page's language: the msgstr in app/locales/<locale>/messages.po). */
function card(page: Page, label: string) {
  return page
    .getByRole("definition")
    .filter({ has: page.locator(`xpath=preceding-sibling::dt[normalize-space()="${label}"]`) });
}

/** Every site link on the page (not hash links, not the feed or other files). */
async function siteLinks(page: Page): Promise<string[]> {
  return page
    .locator("main a[href^='/']")
    .evaluateAll((links) =>
      links.map((link) => link.getAttribute("href") ?? "").filter((href) => !/\.\w+$/.test(href)),
    );
}

test.describe("the status page in other languages", () => {
  for (const path of ["/de/status", "/ar/status", "/pt-br/status/incidents/1"]) {
    test(`${path} hydrates without a mismatch: the browser writes what the server wrote`, async ({ page }) => {
      const errors: string[] = [];
      page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
      page.on("pageerror", (error) => errors.push(error.message));
      await gotoHydrated(page, path);
      expect(errors).toEqual([]);
    });
  }

  test("/de/status is German: <html lang>, the canonical URL, German numbers and dates, links under /de/", async ({
    page,
  }) => {
    const response = await page.goto("/de/status");
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute("href", /\/de\/status$/);
    await expect(page).toHaveTitle("Systemstatus | Kestrel Software");
    // Computed from the demo history: 99.66 written the German way.
    await expect(card(page, "Durchschnittliche Verfügbarkeit")).toHaveText(/^99,66\s%$/);
    await expect(page.getByRole("row", { name: /Kestrel Vault/ })).toContainText(/99,90\s%/);
    // The demo's Vault outage (12 days before the server started), dated and numbered in German; its title is the
    // operator's, in English.
    const outage = page
      .getByRole("list", { name: "Kestrel Vault: tägliche Verfügbarkeit, letzte 90 Tage" })
      .getByRole("listitem")
      .nth(demoVaultOutageBarIndex());
    await expect(outage).toHaveText(/^\d{1,2}\. \S+: 91,55\s%, .+: Kestrel Vault sync delays$/);
    await expect(outage.locator('span[lang="en"]')).toHaveText("Kestrel Vault sync delays");
    // A plain day carries its whole label here (the stylesheet's ": 100%" is English).
    await expect(
      page
        .getByRole("list", { name: "Kestrel Vault: tägliche Verfügbarkeit, letzte 90 Tage" })
        .getByRole("listitem")
        .first(),
    ).toHaveText(/^\d{1,2}\. \S+: 100\s%$/);

    const past = page.getByRole("region", { name: "Vergangene Vorfälle (14 Tage)" });
    await expect(past.getByRole("link", { name: "Kestrel Vault sync delays" })).toHaveAttribute("lang", "en");
    const links = await siteLinks(page);
    expect(links.filter((href) => href.startsWith("/status"))).toEqual([]);
    expect(links.filter((href) => href.startsWith("/de/status/incidents/"))).toHaveLength(3);
    // The Atom feed is one, in English, at its own address.
    await expect(page.getByRole("link", { name: "Vorfälle abonnieren (Atom-Feed)" })).toHaveAttribute(
      "href",
      "/status/feed.xml",
    );
  });

  test("an incident's page stays in German: its breadcrumb, its dates, the operator's words marked English", async ({
    page,
  }) => {
    await gotoHydrated(page, "/de/status");
    await page.getByRole("link", { name: "Kestrel Vault sync delays" }).click();
    await expect(page).toHaveURL(/\/de\/status\/incidents\/\d+$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    const heading = page.getByRole("heading", { level: 1, name: "Kestrel Vault sync delays" });
    await expect(heading).toHaveAttribute("lang", "en");
    const updates = page.getByRole("region", { name: "Aktualisierungen" }).getByRole("listitem");
    await expect(updates).toHaveCount(3);
    await expect(updates.first().locator("[lang='en']")).toHaveCount(1);
    // dateStyle "medium" in German: 12.11.2026.
    await expect(updates.first().locator("time")).toHaveText(/\d{2}\.\d{2}\.\d{4}/);
    const back = page.getByRole("navigation", { name: "Brotkrümelnavigation" }).getByRole("link");
    await expect(back).toHaveAttribute("href", "/de/status");
    await back.click();
    await expect(page).toHaveURL(/\/de\/status$/);
  });

  test("/es/status shows the Spanish content's figures, also after Refresh Status asks the API in Spanish", async ({
    page,
  }) => {
    await gotoHydrated(page, "/es/status");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(card(page, "Servidores de licencias")).toHaveText("EN LÍNEA");
    const refetch = page.waitForResponse((r) => r.url().endsWith("/api/status?locale=es") && r.status() === 200);
    await page.getByRole("button", { name: "Actualizar estado" }).click();
    await refetch;
    await expect(page.getByText("¡Actualizado correctamente!")).toBeVisible();
    await expect(card(page, "Servidores de licencias")).toHaveText("EN LÍNEA");
  });

  test("/ar/status is right to left, with the Arabic content and no axe violations", async ({ page }) => {
    test.setTimeout(90_000);
    await gotoHydrated(page, "/ar/status");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(card(page, "خوادم التراخيص")).toHaveText("متصلة");
    // The chat button sits in the bottom corner the page's reading ends in.
    const launcher = await page.getByRole("button", { name: "فتح دردشة الدعم" }).boundingBox();
    expect((launcher?.x ?? 1000) + (launcher?.width ?? 0) / 2).toBeLessThan((page.viewportSize()?.width ?? 0) / 2);
    // Right to left, today is the row's left end: the right arrow goes back a day, the left one forward again.
    const bars = page
      .getByRole("list", { name: "Kestrel Vault: نسبة التشغيل اليومية، آخر 90 يومًا" })
      .getByRole("listitem");
    await bars.last().focus();
    await page.keyboard.press("ArrowRight");
    await expect(bars.nth(88)).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(bars.last()).toBeFocused();
    const results = await axeBuilder(page).withTags(WCAG_TAGS).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });

  test("GET /api/status answers each language's figures and refuses a language the shop does not speak", async ({
    request,
  }) => {
    const spanish = await request.get("/api/status?locale=es");
    expect(spanish.status()).toBe(200);
    expect((await spanish.json()).summary.licenseServers).toBe("EN LÍNEA");
    expect((await (await request.get("/api/status")).json()).summary.licenseServers).toBe("ONLINE");
    const unknown = await request.get("/api/status?locale=fr");
    expect(unknown.status()).toBe(400);
    expect(await unknown.json()).toEqual({ error: "Unknown locale" });
  });
});

test.describe("the support chat in another language", () => {
  test.describe.configure({ timeout: 120_000 });
  let receiver: ChatWebhookReceiver;
  let server: AppServer | undefined;
  test.beforeEach(async () => {
    receiver = await startChatWebhookReceiver();
  });
  test.afterEach(async () => {
    await server?.kill();
    server = undefined;
    await receiver.close();
  });

  test("a chat on a German page sends its language, and reaches the team in English with the answers as typed", async ({
    page,
  }) => {
    server = await startAppServer({ env: { SUPPORT_WEBHOOK_URL: receiver.url } });
    await gotoHydrated(page, `${server.url}/de/status`);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(card(page, "Durchschnittliche Verfügbarkeit")).toHaveText(/^99,66\s%$/);
    // The page's and the chat's own words are German; the category the request carries stays its English name.
    await page.getByRole("button", { name: "Support kontaktieren" }).click();
    const panel = page.getByRole("dialog", { name: "Support-Chat" });
    await expect(panel).toBeVisible({ timeout: 20_000 });
    await panel.getByRole("button", { name: "Kategorie auswählen" }).click();
    await page.getByRole("menuitem", { name: "Schlüssel-Reset" }).click();
    const answers = ["Kestrel Vault", "Neuer Rechner, „Lizenz ungültig“", "ich@example.de"];
    const sent = page.waitForRequest((r) => r.url().endsWith("/api/support") && r.method() === "POST");
    const input = panel.getByRole("textbox", { name: "Ihre Antwort" });
    for (const answer of answers) {
      await expect(input).toBeEnabled();
      await input.fill(answer);
      await input.press("Enter");
    }
    expect((await sent).postDataJSON()).toMatchObject({ category: "Key Reset", locale: "de", answers });
    const [message] = await receiver.waitForDelivered(1, 60_000);
    expect(message?.content).toBe("New Key Reset Request");
    expect(message?.embeds?.[0]?.title).toBe("Support Request - Key Reset");
    expect(message?.embeds?.[0]?.fields).toEqual([{ name: "Language", value: "German (de)", inline: true }]);
    expect(message?.embeds?.[0]?.description).toBe(
      [...SUPPORT_QUESTIONS["Key Reset"].map((question, i) => `**${question}**\n${answers[i]}`)].join("\n\n"),
    );
  });
});
