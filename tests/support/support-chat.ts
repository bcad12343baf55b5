import { expect, type Locator, type Page } from "@playwright/test";
import { CLOSING_MESSAGES } from "~/features/support-chat/support-chat";

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

/**
 * Sends a Key Reset request through the open chat panel as a visitor types it (category menu, one answer per
 * question) and waits for the closing message; returns the panel's conversation list.
 */
export async function sendKeyResetFromChat(page: Page, panel: Locator, answers: readonly string[]) {
  await panel.getByRole("button", { name: "Select a category" }).click();
  await page.getByRole("menuitem", { name: "Key Reset" }).click();
  const input = panel.getByRole("textbox", { name: "Your answer" });
  for (const answer of answers) {
    await expect(input).toBeEnabled();
    await input.fill(answer);
    await input.press("Enter");
  }
  const list = panel.getByRole("list", { name: "Conversation" });
  await expect(list.getByText(CLOSING_MESSAGES["Key Reset"])).toBeVisible({ timeout: 30_000 });
  return list;
}
