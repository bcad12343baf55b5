import { expect, type Locator, type Page, test } from "@playwright/test";
import { gotoHydrated } from "../support/hydration";

/** The hrefs of the site links (not #hash links, not other sites) inside `area`, less those inside `except`. */
async function siteLinks(area: Locator, except?: Locator): Promise<string[]> {
  const skip = except ? await except.elementHandle() : null;
  return area
    .locator('a[href^="/"]')
    .evaluateAll(
      (links, skip) => links.filter((link) => !skip?.contains(link)).map((link) => link.getAttribute("href") ?? ""),
      skip,
    );
}

/** The footer's language menu is labelled "Languages" in the page's language (app/locales/<locale>/messages.po). */
const LANGUAGES_LABEL: Record<string, string> = { "/de": "Sprachen", "/ar": "اللغات" };

/**
 * Every site link in the header, the footer and the page's main content stays in `prefix`, but for the footer's
 * language menu: its links are this same page in each language, this one marked current.
 */
async function expectLinksToStayIn(page: Page, prefix: string) {
  expect(await siteLinks(page.getByRole("banner"))).not.toEqual([]);
  expect(await siteLinks(page.getByRole("contentinfo"))).not.toEqual([]);
  const languages = page
    .getByRole("contentinfo")
    .getByRole("list", { name: LANGUAGES_LABEL[prefix], exact: true, includeHidden: true });
  const { pathname, search } = new URL(page.url());
  const here = pathname.slice(prefix.length) + search; // "/faq", or "" on the home page
  expect(await siteLinks(languages)).toEqual([here || "/", ...["/de", "/es", "/pt-br", "/ar"].map((p) => p + here)]);
  await expect(languages.locator('a[aria-current="page"]')).toHaveAttribute("href", prefix + here);
  const areas = [page.getByRole("banner"), page.getByRole("contentinfo"), page.getByRole("main")];
  for (const area of areas) {
    const hrefs = await siteLinks(area, languages);
    const elsewhere = hrefs.filter(
      (href) => href !== prefix && !href.startsWith(`${prefix}/`) && !href.startsWith(`${prefix}?`),
    );
    expect(elsewhere).toEqual([]);
  }
}

test.describe("the shell and content pages in German", () => {
  test("/de: German content, the navigation in German linking to German pages, Home marked current", async ({
    page,
    baseURL,
  }) => {
    // Hydrated: before, the server's no-JavaScript phone menu (a <details>) holds a second copy of the nav's links.
    const response = await gotoHydrated(page, "/de");
    expect(response?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page).toHaveTitle("Kestrel Software | Premium-Software für Windows, lizenziert nach Ihren Wünschen.");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/de`);
    await expect(
      page.getByText(
        "Premium-Software für Windows, lizenziert nach Ihren Wünschen. Wählen Sie eine Laufzeit, bezahlen Sie sicher und erhalten Sie Ihren Schlüssel in Sekunden.",
      ),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "Produkt auswählen" })).toBeVisible();
    const nav = page.getByRole("banner").getByRole("navigation");
    await expect(nav.getByRole("link")).toHaveText([
      "Start",
      "Produkte",
      "Status",
      "Bewertungen",
      "Reseller",
      "FAQ",
      /^Community/,
    ]);
    expect(await siteLinks(nav)).toEqual([
      "/de",
      "/de/products",
      "/de/status",
      "/de/reviews",
      "/de/reseller",
      "/de/faq",
    ]);
    await expect(nav.getByRole("link", { name: "Start" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("banner").getByRole("link", { name: "Kestrel Software" })).toHaveAttribute(
      "href",
      "/de",
    );
    await expect(page.getByRole("main").getByRole("link", { name: "Produkte ansehen" })).toHaveAttribute(
      "href",
      "/de/products",
    );
    await expectLinksToStayIn(page, "/de");
  });

  test("/de/faq: the German questions, in the FAQPage JSON-LD too, and German links", async ({ page, baseURL }) => {
    await page.goto("/de/faq");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await page.getByText("Kann ich eine Rückerstattung erhalten?").click();
    await expect(page.getByText(/^Rückerstattungen gibt es nur, wenn unser Support-Team/)).toBeVisible();
    // German keeps the name FAQ (its msgstr is "FAQ").
    await expect(page).toHaveTitle("FAQ | Kestrel Software");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/de/faq`);
    await expect(
      page.getByRole("banner").getByRole("navigation").getByRole("link", { name: "FAQ", exact: true }),
    ).toHaveAttribute("aria-current", "page");
    const faqPage = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) =>
        scripts.flatMap((s) => [JSON.parse(s.textContent ?? "")].flat()).find((d) => d["@type"] === "FAQPage"),
      );
    expect(faqPage.inLanguage).toBe("de");
    expect(faqPage.mainEntity[1].name).toBe("Kann ich eine Rückerstattung erhalten?");
    await expectLinksToStayIn(page, "/de");
  });

  test("/de/docs: German entries under English anchors, the product choice and resources in German", async ({
    page,
  }) => {
    await page.goto("/de/docs");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    const entries = page.getByRole("main").getByRole("article");
    await expect(entries.getByRole("heading", { level: 3 })).toHaveText([
      "Aktivierung fehlgeschlagen",
      "Funktionen arbeiten nicht",
      "App stürzt ab",
    ]);
    // Anchors stay those of the English titles, so a shared /docs?product=vault#app-crashing opens in any language.
    await expect(entries.nth(2)).toHaveAttribute("id", "app-crashing");
    await expect(page.getByRole("link", { name: "App stürzt ab" })).toHaveAttribute("href", "#app-crashing");
    await expect(page.getByText(/Lösungen für die häufigsten Probleme, Produkt für Produkt\./)).toBeVisible();
    const resources = page.locator("#docs-resources").locator("..");
    await expect(resources.getByRole("link", { name: /^Downloads/ })).toHaveAttribute("href", "/de/downloads");
    await expectLinksToStayIn(page, "/de");
    await page.getByRole("link", { name: "Kestrel Capture", exact: true }).click();
    await expect(page).toHaveURL(/\/de\/docs\?product=capture$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
  });

  test("/de/downloads: German release notes, dates written the German way", async ({ page }) => {
    await page.goto("/de/downloads");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    const vault = page.getByRole("article", { name: "Kestrel Vault" });
    await expect(
      vault.getByText("Verschlüsselter Datentresor mit sicherem Schreddern und portablen Backups."),
    ).toBeVisible();
    await expect(vault.getByText("Windows 10 oder 11 (64-Bit)")).toBeVisible();
    await expect(vault.locator('time[datetime="2026-11-12"]')).toHaveText("12. Nov. 2026");
    await expectLinksToStayIn(page, "/de");
  });

  test("/de/reseller: the German plans", async ({ page }) => {
    await page.goto("/de/reseller");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(
      page.getByText(/^Verkaufen Sie Lizenzen von Kestrel Software unter Ihrem eigenen Namen\./),
    ).toBeVisible();
    await expect(
      page.getByRole("article", { name: "Reseller Pro" }).getByText("Installer mit eigenem Branding"),
    ).toBeVisible();
    await expectLinksToStayIn(page, "/de");
  });

  test("/de/refund and /de/terms: the German policy, titled in German, its links and date in German", async ({
    page,
    baseURL,
  }) => {
    await page.goto("/de/refund");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page).toHaveTitle("Rückerstattungsrichtlinie | Kestrel Software");
    await expect(page.getByRole("heading", { level: 1, name: "Rückerstattungsrichtlinie" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "1. Zuerst der Support" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Allgemeinen Geschäftsbedingungen" })).toHaveAttribute(
      "href",
      "/de/terms",
    );
    await expect(page.locator('time[datetime="2026-11-01"]')).toHaveText("1. November 2026");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/de/refund`);
    await expectLinksToStayIn(page, "/de");
    await page.getByRole("link", { name: "Allgemeinen Geschäftsbedingungen" }).click();
    await expect(page).toHaveURL(/\/de\/terms$/);
    await expect(page.getByRole("heading", { level: 2, name: "1. Wer wir sind" })).toBeVisible();
  });

  test("/de/reviews: reviews keep the language they were written in", async ({ page }) => {
    await page.goto("/de/reviews");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    const written = page.getByRole("main").getByRole("article").locator("p[lang]");
    await expect(written.first()).toBeVisible();
    expect(new Set(await written.evaluateAll((ps) => ps.map((p) => p.getAttribute("lang"))))).toEqual(new Set(["en"]));
    await expectLinksToStayIn(page, "/de");
  });

  test("/de/… that does not exist: 404 in German, with the way home in German", async ({ page }) => {
    const response = await page.goto("/de/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("link", { name: "Zur Startseite" })).toHaveAttribute("href", "/de");
    await expectLinksToStayIn(page, "/de");
  });
});

test.describe("the shell and content pages in Arabic", () => {
  for (const path of ["/ar", "/ar/faq", "/ar/docs", "/ar/downloads", "/ar/reseller", "/ar/reviews", "/ar/terms"]) {
    test(`${path} is right to left, and its links stay in Arabic`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.locator("html")).toHaveAttribute("lang", "ar");
      await expect(page.getByRole("banner").getByRole("navigation").getByRole("link").first()).toHaveText("الرئيسية");
      await expectLinksToStayIn(page, "/ar");
    });
  }

  test("/ar/faq and /ar/docs show the Arabic content", async ({ page }) => {
    await page.goto("/ar/faq");
    await expect(page.getByText("هل يمكنني استخدام ترخيص واحد على أكثر من جهاز؟")).toBeVisible();
    await page.goto("/ar/docs");
    await expect(page.getByRole("heading", { level: 3, name: "فشل التفعيل" })).toBeVisible();
    // Arabic titles make no anchor of their own: the English one names the entry.
    await expect(page.getByRole("main").getByRole("article").first()).toHaveAttribute("id", "activation-failed");
  });

  test("/ar: the arrow to the catalogue points the way Arabic reads", async ({ page }) => {
    await page.goto("/ar");
    await expect(page.getByRole("main").locator('a[href="/ar/products"] span[aria-hidden="true"]')).toHaveText("←");
  });
});
