import { expect, type Page, type Request, type Route, test } from "@playwright/test";
import { CLOSING_MESSAGES, SUPPORT_QUESTIONS } from "~/features/support-chat/support-chat";
import { openChat } from "../support/support-chat";

// A visitor on a slow connection: the server's copy of the conversation arrives after they clicked New request.

const GREETING = "Welcome to Kestrel Software support! Please select a support category below.";
const ANSWERS = ["Kestrel Studio", "Card", "Declined", "me@example.com"];

function newVisitorIp() {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

function conversation(page: Page) {
  return page.getByRole("dialog", { name: "Support Chat" }).getByRole("list", { name: "Conversation" });
}

/** The browser goes idle only once the page has run everything a response set off (parse, state, render). */
async function untilIdle(page: Page) {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve()))),
  );
}

/** A read of the browser's conversation (not its messages, events or seen routes). */
const isConversationRead = (request: Request) =>
  request.method() === "GET" && new URL(request.url()).pathname === "/api/support/conversation";

/**
 * Holds every read of the conversation from now on until `release()`. `settled` resolves once the held read has
 * reached the page or failed (the page may abort it), so the test knows the page has had its chance to use it.
 */
async function holdConversationReads(page: Page) {
  const held: Route[] = [];
  const settledReads: Promise<void>[] = [];
  let holding = true;
  let firstHeld: () => void = () => {};
  const oneHeld = new Promise<void>((resolve) => {
    firstHeld = resolve;
  });
  await page.route(
    (url) => url.pathname === "/api/support/conversation",
    async (route) => {
      const request = route.request();
      if (!holding || !isConversationRead(request)) return route.continue();
      settledReads.push(
        new Promise<void>((resolve) => {
          const done = (other: Request) => other === request && resolve();
          page.on("requestfinished", done);
          page.on("requestfailed", done);
        }),
      );
      held.push(route);
      firstHeld();
    },
  );
  return {
    oneHeld,
    async release() {
      holding = false;
      // A read the page has aborted meanwhile cannot be continued: that is the point, so it is not an error here.
      for (const route of held.splice(0)) await route.continue().catch(() => {});
      await Promise.all(settledReads);
      await untilIdle(page);
    },
  };
}

/** The panel after New request, as the existing spec checks it: the greeting and the category menu, nothing else. */
async function expectFreshQuestionnaire(page: Page) {
  const panel = page.getByRole("dialog", { name: "Support Chat" });
  await expect(panel.getByRole("listitem")).toHaveCount(2);
  await expect(conversation(page).getByText(GREETING)).toBeVisible();
  await expect(panel.getByRole("button", { name: "Select a category" })).toBeVisible();
  await expect(panel.getByRole("button", { name: "New request" })).toHaveCount(0);
}

/**
 * Opens the chat on a fresh page and answers a Purchase Support questionnaire up to (not including) its last answer.
 * A fresh visitor has no conversation, so the panel reads none when it opens: the first read is the one after sending.
 */
async function answerAllButTheLast(page: Page) {
  await page.goto("/");
  const panel = await openChat(page);
  await panel.getByRole("button", { name: "Select a category" }).click();
  await page.getByRole("menuitem", { name: "Purchase Support" }).click();
  const input = panel.getByRole("textbox", { name: "Your answer" });
  for (const answer of ANSWERS.slice(0, -1)) {
    await expect(input).toBeEnabled();
    await input.fill(answer);
    await input.press("Enter");
  }
  await expect(conversation(page).getByText(SUPPORT_QUESTIONS["Purchase Support"].at(-1) ?? "")).toBeVisible();
  return panel;
}

async function sendLastAnswer(page: Page) {
  const input = page.getByRole("textbox", { name: "Your answer" });
  await expect(input).toBeEnabled();
  await input.fill(ANSWERS.at(-1) ?? "");
  await input.press("Enter");
  await expect(conversation(page).getByText(CLOSING_MESSAGES["Purchase Support"])).toBeVisible({ timeout: 20_000 });
}

test.describe("support chat on a slow connection", () => {
  // Each submission solves a real proof-of-work challenge, which takes a few seconds on a busy machine.
  test.describe.configure({ timeout: 60_000 });
  test.beforeEach(async ({ page }) => page.setExtraHTTPHeaders({ "X-Forwarded-For": newVisitorIp() }));

  test("the conversation read after sending does not come back when it lands after New request, nor after a reload", async ({
    page,
  }) => {
    const panel = await answerAllButTheLast(page);
    const reads = await holdConversationReads(page);
    await sendLastAnswer(page);
    await reads.oneHeld;

    await panel.getByRole("button", { name: "New request" }).click();
    await expectFreshQuestionnaire(page);
    await expect(panel.getByRole("button", { name: "Select a category" })).toBeFocused();

    await reads.release();
    await expectFreshQuestionnaire(page);

    // The next page's read finds the same conversation on the server: it stays set aside.
    const nextRead = page.waitForResponse((response) => isConversationRead(response.request()));
    await page.reload();
    await openChat(page);
    expect((await nextRead).status()).toBe(200);
    await untilIdle(page);
    await expectFreshQuestionnaire(page);
  });

  test("after a reload, the conversation read that lands after New request does not come back", async ({ page }) => {
    await answerAllButTheLast(page);
    const answered = page.waitForResponse((response) => isConversationRead(response.request()));
    await sendLastAnswer(page);
    expect((await answered).status()).toBe(200);

    const reads = await holdConversationReads(page);
    await page.reload();
    const panel = await openChat(page);
    await reads.oneHeld;
    // The finished questionnaire, restored from the tab, until the server's copy arrives.
    await expect(conversation(page).getByText(CLOSING_MESSAGES["Purchase Support"])).toBeVisible();
    await panel.getByRole("button", { name: "New request" }).click();
    await expectFreshQuestionnaire(page);
    await expect(panel.getByRole("button", { name: "Select a category" })).toBeFocused();

    await reads.release();
    await expectFreshQuestionnaire(page);
  });
});
