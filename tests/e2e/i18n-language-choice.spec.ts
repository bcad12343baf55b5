import { expect, test } from "@playwright/test";
import { gotoHydrated } from "../support/hydration";

test.describe("a visitor whose browser prefers German", () => {
  test.use({ locale: "de-DE" });

  test("is offered the page in German, worded in German, without being redirected; dismissing it is remembered", async ({
    page,
  }) => {
    const response = await gotoHydrated(page, "/faq");
    expect(response?.status()).toBe(200);
    expect(response?.request().redirectedFrom()).toBeNull();
    await expect(page).toHaveURL(/\/faq$/);
    const suggestion = page.locator("aside[lang='de']");
    await expect(suggestion).toBeVisible();
    await expect(suggestion).toHaveAttribute("dir", "ltr");
    // Worded in German: the msgstr of app/locales/de (language-suggestion.api.server.ts), name = "Deutsch".
    await expect(suggestion).toHaveAccessibleName("Sprachvorschlag");
    await expect(suggestion.getByText("Diese Seite ist auch auf Deutsch verfügbar.", { exact: true })).toBeVisible();
    const link = suggestion.getByRole("link", { name: "Auf Deutsch anzeigen", exact: true });
    await expect(link).toHaveAttribute("href", "/de/faq");
    await expect(link).toHaveAttribute("hreflang", "de");
    await suggestion.getByRole("button", { name: "Nein, danke", exact: true }).click();
    await expect(suggestion).toHaveCount(0);
    await gotoHydrated(page, "/faq");
    // Give a suggestion time to be asked for: none comes once the visitor said no.
    await page.waitForLoadState("networkidle");
    await expect(page.locator("aside[lang='de']")).toHaveCount(0);
  });

  test("who follows the suggestion gets the same page in German and is not asked again", async ({ page }) => {
    await gotoHydrated(page, "/product/446889");
    await page.locator("aside[lang='de']").getByRole("link").click();
    await expect(page).toHaveURL(/\/de\/product\/446889$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await page.waitForLoadState("networkidle");
    await expect(page.locator("aside[lang]")).toHaveCount(0);
  });

  test("is not offered German on a German page", async ({ page }) => {
    await gotoHydrated(page, "/de/faq");
    await page.waitForLoadState("networkidle");
    await expect(page.locator("aside[lang]")).toHaveCount(0);
  });
});

test.describe("a visitor whose browser prefers Arabic", () => {
  test.use({ locale: "ar-EG" });

  test("is offered the page right to left", async ({ page }) => {
    await gotoHydrated(page, "/de/faq");
    const suggestion = page.locator("aside[lang='ar']");
    await expect(suggestion).toHaveAttribute("dir", "rtl");
    await expect(suggestion.getByRole("link")).toHaveAttribute("href", "/ar/faq");
  });
});

test("a crawler asking in German gets the English page it asked for, the same as everyone", async ({ request }) => {
  const german = await request.get("/faq", { headers: { "Accept-Language": "de-DE,de;q=0.9" }, maxRedirects: 0 });
  const plain = await request.get("/faq", { maxRedirects: 0 });
  expect(german.status()).toBe(200);
  const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, "");
  expect(withoutNonces(await german.text())).toBe(withoutNonces(await plain.text()));
  expect(german.headers().vary ?? "").not.toMatch(/accept-language/i);
});

test("the language menu leads to the same page in each language, without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/faq");
  const menu = page.locator("details").filter({ has: page.locator("a[hreflang='de']") });
  await menu.locator("summary").click();
  await menu.locator("a[hreflang='de']").click();
  await expect(page).toHaveURL(/\/de\/faq$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await context.close();
});
