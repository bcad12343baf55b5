import { expect, type Page, test } from "@playwright/test";
import { gotoHydrated } from "../support/hydration";
import { openChat } from "../support/support-chat";

// A page loads the interface messages its own code uses, in its own language only (docs/decisions/017): the shell's
// (root) and its route's before it hydrates; a lazily loaded panel or another route brings its own when it loads.
// Where a test names one of the interface's messages it names the translation in app/locales/de/messages.po.

/** The message files the page asked for, as `<chunk>.<locale>`, in the order it asked. */
function recordMessageFiles(page: Page): string[] {
  const files: string[] = [];
  page.on("request", (request) => {
    const match = /\/assets\/messages\/(.+)-[\w-]{8}\.([a-z-]+)\.js$/.exec(new URL(request.url()).pathname);
    if (match) files.push(`${match[1]}.${match[2]}`);
  });
  return files;
}

test.describe("each page's own messages", () => {
  test("/de loads the German messages of the shell and the home page, nothing of other pages or languages", async ({
    page,
  }) => {
    const files = recordMessageFiles(page);
    await gotoHydrated(page, "/de");
    expect([...files].sort()).toEqual(["home.de", "root.de"]);
    await expect(page.getByRole("button", { name: "Support-Chat öffnen" })).toBeVisible();
  });

  test("a link to another page brings that page's messages: /de → Produkte shows the catalogue's German controls", async ({
    page,
  }) => {
    const files = recordMessageFiles(page);
    await gotoHydrated(page, "/de");
    await page.getByRole("banner").getByRole("link", { name: "Produkte", exact: true }).first().click();
    await expect(page).toHaveURL(/\/de\/products$/);
    await expect(page.getByRole("combobox", { name: "Sortieren nach" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Produkte");
    expect(files).toContain("products.de");
    expect(files.every((file) => file.endsWith(".de"))).toBe(true);
  });

  test("the chat panel's messages come with the panel, in the page's language", async ({ page }) => {
    const files = recordMessageFiles(page);
    await gotoHydrated(page, "/de/faq");
    expect(files).not.toContain("support-chat-panel.de");
    const panel = await openChat(page, { launcher: "Support-Chat öffnen", panel: "Support-Chat" });
    await expect(panel.getByRole("button", { name: "Support-Chat schließen" })).toBeVisible();
    expect(files).toContain("support-chat-panel.de");
    expect(files.every((file) => file.endsWith(".de"))).toBe(true);
  });
});
