import { expect, type Page } from "@playwright/test";

/**
 * Opens the support chat with its launcher and returns the panel, both found by their names in the page's language.
 * Clicks until the launcher reports the panel open: a click before hydration is carried out once the page is ready.
 */
export async function openChat(page: Page, names = { launcher: "Open support chat", panel: "Support Chat" }) {
  const launcher = page.getByRole("button", { name: names.launcher });
  const panel = page.getByRole("dialog", { name: names.panel });
  await expect(async () => {
    if ((await launcher.getAttribute("aria-expanded")) !== "true") await launcher.click();
    await expect(panel).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  return panel;
}
