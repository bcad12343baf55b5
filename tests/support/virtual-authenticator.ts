import type { Page } from "@playwright/test";

/**
 * Chromium's virtual authenticator (DevTools WebAuthn domain) on the page: a platform authenticator that holds
 * discoverable credentials and verifies its user (a fingerprint, say). Returns its id.
 */
export async function addAuthenticator(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

export async function removeAuthenticator(page: Page, authenticatorId: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
}

/** The setup link `staff invite` prints on a line of its own. */
export function setupLinkIn(output: string): string {
  const link = output.split("\n").find((line) => line.startsWith("http"));
  if (!link) throw new Error(`no setup link in:\n${output}`);
  return link.trim();
}
