import { expect, type Locator, test } from "@playwright/test";
import { gotoHydrated } from "../support/hydration";
import { openChat } from "../support/support-chat";

// On a right-to-left page, what people type or wrote keeps its own direction (dir="auto"): an English search, code
// or answer reads left to right inside the Arabic page, and Arabic text reads right to left on an English one.

/** Whether the browser lays the element out left to right (its resolved direction, after dir="auto"). */
const readsLeftToRight = (element: Locator) => element.evaluate((el) => el.matches(":dir(ltr)"));

test.describe("text the buyer types on an Arabic page", () => {
  test("/ar/products: the product search takes the direction of what is typed", async ({ page }) => {
    await gotoHydrated(page, "/ar/products");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    const search = page.getByRole("searchbox", { name: "البحث في المنتجات" });
    await expect(search).toHaveAttribute("dir", "auto");
    await search.fill("Vault");
    expect(await readsLeftToRight(search)).toBe(true);
    await search.fill("خزنة");
    expect(await readsLeftToRight(search)).toBe(false);
  });

  test("/ar/product/…: the coupon code field takes the direction of what is typed", async ({ page }) => {
    await gotoHydrated(page, "/ar/product/446889");
    await page.getByText("هل لديك قسيمة؟").click();
    const coupon = page.getByRole("textbox", { name: "رمز القسيمة" });
    await expect(coupon).toHaveAttribute("dir", "auto");
    await coupon.fill("WELCOME10");
    expect(await readsLeftToRight(coupon)).toBe(true);
  });

  test("the support chat: the answer box and the visitor's own messages take the direction of what is typed", async ({
    page,
  }) => {
    await gotoHydrated(page, "/ar");
    const panel = await openChat(page, { launcher: "فتح دردشة الدعم", panel: "دردشة الدعم" });
    const answer = panel.getByRole("textbox", { name: "إجابتك" });
    await expect(answer).toHaveAttribute("dir", "auto");
    await panel.getByRole("button", { name: "اختر فئة" }).click();
    await page.getByRole("menuitem", { name: "إعادة تعيين المفتاح" }).click();
    await expect(answer).toBeEnabled();
    await answer.fill("Kestrel Vault");
    expect(await readsLeftToRight(answer)).toBe(true);
    await answer.press("Enter");
    const ownMessage = panel.getByRole("listitem").filter({ hasText: "Kestrel Vault" }).locator("p");
    await expect(ownMessage).toHaveAttribute("dir", "auto");
    expect(await readsLeftToRight(ownMessage)).toBe(true);
  });
});

test.describe("text people wrote, shown on an Arabic page", () => {
  test("/ar/reviews: the reviews, in English, read left to right", async ({ page }) => {
    await page.goto("/ar/reviews");
    const written = page.getByRole("main").getByRole("article").locator("p[lang]");
    await expect(written.first()).toBeVisible();
    expect(await written.evaluateAll((ps) => ps.map((p) => p.getAttribute("dir")))).not.toContain(null);
    expect(await readsLeftToRight(written.first())).toBe(true);
  });

  test("/ar/status/incidents/1: the operator's English title reads left to right", async ({ page }) => {
    await page.goto("/ar/status/incidents/1");
    const title = page.getByRole("heading", { level: 1 });
    await expect(title).toHaveAttribute("dir", "auto");
    expect(await readsLeftToRight(title)).toBe(true);
  });
});
