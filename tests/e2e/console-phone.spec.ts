import { type Browser, type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { axeBuilder, WCAG_TAGS } from "../support/axe";
import { runCli } from "../support/cli";
import { gotoHydrated } from "../support/hydration";
import { addStaffSession } from "../support/staff-sessions";
import { openStoreDatabase } from "../support/store-database";
import { addAuthenticator, setupLinkIn } from "../support/virtual-authenticator";

// The console on a phone (issue 47), at 360 × 780: a one-line header whose Menu (a dialog; a <details> without
// JavaScript) holds the rooms the role may enter, the languages and the account; a conversation's title on the first
// screen, a Reply link to the message box, the box still in view after Send reply, and the request and the buyer's
// orders below the conversation. One production server for the file; the owner joins with a passkey in Chromium's
// virtual authenticator, an admin and a support person are put in the database.

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: undefined });

const PHONE = { width: 360, height: 780 };
const CONVERSATION = "47474747-4747-4474-8474-474747474747";
const TITLE = "Key Reset · Kestrel Vault";
const ROOMS = {
  owner: [
    "Dashboard",
    "Support inbox",
    "Saved replies",
    "Orders",
    "Deliveries",
    "Status",
    "Content",
    "Releases",
    "Staff",
    "Audit log",
    "Your account",
  ],
  admin: [
    "Dashboard",
    "Support inbox",
    "Saved replies",
    "Orders",
    "Deliveries",
    "Status",
    "Content",
    "Releases",
    "Your account",
  ],
  support: ["Dashboard", "Support inbox", "Orders", "Your account"],
};
// Each page the proof names, and the room the header and the menu say it is in (support may not enter Status: its
// 403 page is in no room of theirs).
const PAGES = [
  { path: "/admin", room: "Dashboard", current: "page" },
  { path: "/admin/support", room: "Support inbox", current: "page" },
  { path: `/admin/support/${CONVERSATION}`, room: "Support inbox", current: "true" },
  { path: "/admin/status", room: "Status", current: "page" },
] as const;

let server: AppServer;
let origin: string;
const tokens = {} as Record<keyof typeof ROOMS, string>;

test.beforeAll(async ({ browser }) => {
  // A server, a CLI run and a passkey ceremony on a shared, loaded machine.
  test.setTimeout(90_000);
  server = await startAppServer();
  origin = `http://localhost:${server.port}`;
  const link = setupLinkIn(
    await runCli(
      { dataDir: server.dataDir, env: { PUBLIC_URL: origin } },
      "staff",
      "invite",
      "owner@example.com",
      "--role",
      "owner",
    ),
  );
  const context = await browser.newContext({ viewport: PHONE });
  try {
    const page = await context.newPage();
    await addAuthenticator(page);
    await gotoHydrated(page, link);
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible({ timeout: 20_000 });
    tokens.owner = (await context.cookies()).find((c) => c.name === "kestrel-staff")?.value ?? "";
  } finally {
    await context.close();
  }
  tokens.admin = addStaffSession(server.dataDir, "admin@example.com", "admin");
  tokens.support = addStaffSession(server.dataDir, "agent@example.com", "support");
  // A conversation with a history longer than a phone's screen.
  const db = openStoreDatabase(server.dataDir);
  try {
    const at = new Date().toISOString();
    db.prepare(
      "INSERT INTO support_requests (id, category, answers, created_at, delivery_status, next_attempt_at) VALUES (?, 'Key Reset', ?, ?, 'no_channel', ?)",
    ).run("phone-request", JSON.stringify(["Kestrel Vault", "Moved to a new laptop", "buyer@example.com"]), at, at);
    db.prepare(
      "INSERT INTO support_conversations (id, request_id, category, locale, visitor_email, visitor_active_at, last_message_at, created_at, waiting_since) VALUES (?, 'phone-request', 'Key Reset', 'en', 'buyer@example.com', ?, ?, ?, ?)",
    ).run(CONVERSATION, at, at, at, at);
    const message = db.prepare(
      "INSERT INTO support_conversation_messages (conversation_id, seq, id, author, author_name, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    for (let seq = 1; seq <= 12; seq++)
      message.run(
        CONVERSATION,
        seq,
        `phone-message-${seq}`,
        seq % 2 ? "visitor" : "team",
        seq % 2 ? null : "mara",
        `Message ${seq}: the key stopped working after the move to the new laptop. What can be done about it?`,
        at,
      );
  } finally {
    db.close();
  }
});

test.afterAll(async () => {
  await server?.stop();
});

async function phone(
  browser: Browser,
  who: keyof typeof ROOMS,
  options: { hasTouch?: boolean; javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; cspErrors: string[] }> {
  const context = await browser.newContext({ viewport: PHONE, ...options });
  await context.addCookies([{ name: "kestrel-staff", value: tokens[who], url: origin }]);
  const page = await context.newPage();
  // The dialog's scroll lock adds a <style>: it must carry the page's nonce, or the CSP refuses it.
  const cspErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/.test(message.text())) cspErrors.push(message.text());
  });
  return { context, page, cspErrors };
}

async function axeViolations(page: Page) {
  const results = await axeBuilder(page).withTags(WCAG_TAGS).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function expectOneLineHeader(page: Page, room: string | null) {
  const banner = page.getByRole("banner");
  const height = (await banner.boundingBox())?.height ?? Number.POSITIVE_INFINITY;
  expect(height, page.url()).toBeLessThan(80);
  await expect(banner.getByText("Shop console", { exact: true }).filter({ visible: true })).toBeVisible();
  if (room) await expect(banner.getByText(room, { exact: true }).filter({ visible: true })).toBeVisible();
  // The rooms are in the Menu, not in the header.
  await expect(banner.getByRole("navigation")).toHaveCount(0);
  await expect(banner.getByRole("link")).toHaveCount(0);
  const wider = await page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
      .map((e) => `${e.tagName}.${e.className}: ${e.getBoundingClientRect().right}`),
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth), wider.join("\n")).toBeLessThanOrEqual(
    PHONE.width,
  );
}

function menuOf(page: Page): Locator {
  return page.getByRole("dialog", { name: "Menu" });
}

async function expectRooms(menu: Locator, rooms: readonly string[], current?: { room: string; is: string }) {
  const links = menu.getByRole("navigation", { name: "Console" }).getByRole("link");
  await expect(links).toHaveText([...rooms]);
  if (current) {
    await expect(links.filter({ hasText: current.room })).toHaveAttribute("aria-current", current.is);
    await expect(menu.locator("a[aria-current]")).toHaveCount(1);
  }
  await expect(menu.getByRole("list", { name: "Languages" }).getByRole("button")).toHaveText([
    "English",
    "Deutsch",
    "Español",
    "Português (Brasil)",
    "العربية",
  ]);
  await expect(menu.getByRole("button", { name: "Sign out" })).toBeVisible();
}

test("an owner's header is one line under 80 px on each page; the Menu opens with the keyboard, lists the owner's eleven rooms, the current one marked, and axe finds nothing open or closed", async ({
  browser,
}) => {
  const { context, page, cspErrors } = await phone(browser, "owner");
  try {
    for (const { path, room, current } of PAGES) {
      await gotoHydrated(page, `${origin}${path}`);
      await expectOneLineHeader(page, room);
      expect(await axeViolations(page), `${path} closed`).toEqual([]);
      // The skip link, then Menu.
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      const toggle = page.getByRole("button", { name: "Menu" });
      await expect(toggle).toBeFocused();
      await page.keyboard.press("Enter");
      const menu = menuOf(page);
      await expect(menu).toBeVisible();
      await expect
        .poll(() => page.evaluate(() => document.querySelector("[role=dialog]")?.contains(document.activeElement)))
        .toBe(true);
      await expectRooms(menu, ROOMS.owner, { room, is: current });
      await expect(menu.getByText("owner@example.com · Owner")).toBeVisible();
      expect(await axeViolations(page), `${path} open`).toEqual([]);
      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();
      await expect(toggle).toBeFocused();
    }
    expect(cspErrors).toEqual([]);
  } finally {
    await context.close();
  }
});

test("by touch: a support person's Menu lists their four rooms and no other, on each page (Status's 403 too); a tapped room opens and the menu closes", async ({
  browser,
}) => {
  const { context, page, cspErrors } = await phone(browser, "support", { hasTouch: true });
  try {
    for (const { path, room, current } of PAGES) {
      const forbidden = path === "/admin/status";
      const response = await gotoHydrated(page, `${origin}${path}`);
      expect(response?.status(), path).toBe(forbidden ? 403 : 200);
      await expectOneLineHeader(page, forbidden ? null : room);
      expect(await axeViolations(page), `${path} closed`).toEqual([]);
      await page.getByRole("button", { name: "Menu" }).tap();
      const menu = menuOf(page);
      await expect(menu).toBeVisible();
      await expectRooms(menu, ROOMS.support, forbidden ? undefined : { room, is: current });
      if (forbidden) await expect(menu.locator("a[aria-current]")).toHaveCount(0);
      expect(await axeViolations(page), `${path} open`).toEqual([]);
      await menu.getByRole("button", { name: "Close" }).tap();
      await expect(menu).toBeHidden();
    }
    await page.getByRole("button", { name: "Menu" }).tap();
    await menuOf(page).getByRole("link", { name: "Orders" }).tap();
    await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
    await expect(menuOf(page)).toBeHidden();
    await expect(page.getByRole("banner").getByText("Orders", { exact: true }).filter({ visible: true })).toBeVisible();
    expect(cspErrors).toEqual([]);
  } finally {
    await context.close();
  }
});

test("by touch: an admin's Menu lists their nine rooms and no other", async ({ browser }) => {
  const { context, page } = await phone(browser, "admin", { hasTouch: true });
  try {
    await gotoHydrated(page, `${origin}/admin/status`);
    await expectOneLineHeader(page, "Status");
    await page.getByRole("button", { name: "Menu" }).tap();
    await expectRooms(menuOf(page), ROOMS.admin, { room: "Status", is: "page" });
  } finally {
    await context.close();
  }
});

test("without JavaScript the Menu still opens, with the rooms, the languages and Sign out, and its links work", async ({
  browser,
}) => {
  const { context, page } = await phone(browser, "owner", { javaScriptEnabled: false });
  try {
    for (const { path, room } of PAGES) {
      await page.goto(`${origin}${path}`);
      await expectOneLineHeader(page, room);
    }
    const banner = page.getByRole("banner");
    await banner.getByText("Menu", { exact: true }).filter({ visible: true }).click();
    const links = banner.getByRole("navigation", { name: "Console" }).getByRole("link");
    await expect(links).toHaveText(ROOMS.owner);
    await expect(links.filter({ hasText: "Status" })).toHaveAttribute("aria-current", "page");
    await expect(banner.getByRole("list", { name: "Languages" }).getByRole("button")).toHaveCount(5);
    await expect(banner.getByRole("button", { name: "Sign out" })).toBeVisible();
    await links.filter({ hasText: "Support inbox" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Support inbox" })).toBeVisible();
    // The language form in the menu works as a plain form.
    await page.getByRole("banner").getByText("Menu", { exact: true }).filter({ visible: true }).click();
    await page.getByRole("banner").getByRole("button", { name: "Deutsch" }).click();
    await expect(page).toHaveURL(`${origin}/de/admin/support`);
    await expect(
      page.getByRole("banner").getByText("Support-Posteingang", { exact: true }).filter({ visible: true }),
    ).toBeVisible();
  } finally {
    await context.close();
  }
});

test("a conversation: the title in the first 200 px, Reply jumps to the box, Send reply leaves it in view, the request and the orders below the conversation", async ({
  browser,
}) => {
  const { context, page } = await phone(browser, "support", { hasTouch: true });
  try {
    await gotoHydrated(page, `${origin}/admin/support/${CONVERSATION}`);
    const title = page.getByRole("heading", { level: 1, name: TITLE });
    const titleBox = await title.boundingBox();
    expect(titleBox?.y ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(0);
    expect((titleBox?.y ?? 0) + (titleBox?.height ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(200);

    const box = page.getByRole("textbox", { name: "Message" });
    await expect(box).not.toBeInViewport();
    await page.getByRole("link", { name: "Reply", exact: true }).tap();
    await expect(box).toBeInViewport();
    await expect(box).toBeFocused();
    await box.fill("Sign in again on the new laptop: the key moves with you.");
    await page.getByRole("button", { name: "Send reply" }).tap();
    await expect(page.getByRole("status")).toHaveText("Reply sent.");
    await expect(page.getByText("Sign in again on the new laptop: the key moves with you.")).toBeVisible();
    await expect(box).toBeInViewport();
    await expect(page.getByRole("button", { name: "Send reply" })).toBeInViewport();

    // Below the conversation (and its box), not beside it: measured in one go, as the page may still be gliding.
    const boxes = await page.evaluate(() => {
      const of = (selector: string) => {
        const rect = document.querySelector(selector)?.getBoundingClientRect();
        return rect
          ? { top: rect.top + window.scrollY, bottom: rect.bottom + window.scrollY, x: rect.x, width: rect.width }
          : null;
      };
      return {
        conversation: of("section[aria-labelledby='conversation-messages']"),
        form: of("form[aria-label='Write to the conversation']"),
        request: of("section[aria-labelledby='request-answers']"),
        orders: of("section[aria-labelledby='buyer-orders']"),
      };
    });
    for (const section of [boxes.request, boxes.orders]) {
      expect(section?.top ?? 0).toBeGreaterThanOrEqual(boxes.form?.bottom ?? Number.POSITIVE_INFINITY);
      expect(section?.x).toBe(boxes.conversation?.x);
      expect(section?.width).toBe(boxes.conversation?.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
  } finally {
    await context.close();
  }
});

test("a conversation without JavaScript: Reply jumps to the box and Send reply opens the page at it", async ({
  browser,
}) => {
  const { context, page } = await phone(browser, "support", { javaScriptEnabled: false });
  try {
    await page.goto(`${origin}/admin/support/${CONVERSATION}`);
    const box = page.getByRole("textbox", { name: "Message" });
    await expect(box).not.toBeInViewport();
    await page.getByRole("link", { name: "Reply", exact: true }).click();
    await expect(box).toBeInViewport();
    await box.fill("Written on a phone without JavaScript.");
    await page.getByRole("button", { name: "Send reply" }).click();
    await expect(page.getByRole("status")).toHaveText("Reply sent.");
    await expect(box).toBeInViewport();
  } finally {
    await context.close();
  }
});

test("the same header in every language, right to left in Arabic, and the desktop's row from 1152 px up", async ({
  browser,
}) => {
  const { context, page } = await phone(browser, "owner");
  try {
    const languages = [
      { prefix: "/de", menu: "Menü", console: "Shop-Konsole", room: "Support-Posteingang" },
      { prefix: "/es", menu: "Menú", console: "Consola de la tienda", room: "Bandeja de soporte" },
      { prefix: "/pt-br", menu: "Menu", console: "Console da loja", room: "Caixa de entrada do suporte" },
      { prefix: "/ar", menu: "القائمة", console: "لوحة تحكم المتجر", room: "صندوق وارد الدعم" },
    ];
    for (const { prefix, menu, console: name, room } of languages) {
      await gotoHydrated(page, `${origin}${prefix}/admin/support/${CONVERSATION}`);
      const banner = page.getByRole("banner");
      expect((await banner.boundingBox())?.height ?? Number.POSITIVE_INFINITY, prefix).toBeLessThan(80);
      await expect(banner.getByText(name, { exact: true }).filter({ visible: true })).toBeVisible();
      await expect(banner.getByText(room, { exact: true }).filter({ visible: true })).toBeAttached();
      const toggle = page.getByRole("button", { name: menu });
      await toggle.click();
      const dialog = page.getByRole("dialog", { name: menu });
      await expect(dialog.getByRole("navigation").getByRole("link")).toHaveCount(ROOMS.owner.length);
      await expect(dialog.locator("a[aria-current]")).toHaveText(room);
      if (prefix === "/ar") {
        await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
        expect(await axeViolations(page)).toEqual([]);
      }
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      if (prefix === "/ar") {
        // Right to left: the console's name at the right edge, Menu at the left.
        const nameBox = await banner.getByText(name, { exact: true }).filter({ visible: true }).boundingBox();
        const toggleBox = await toggle.boundingBox();
        expect((toggleBox?.x ?? 0) + (toggleBox?.width ?? 0)).toBeLessThan(nameBox?.x ?? 0);
      }
    }
    // From the console breakpoint up, the row of rooms as before and no Menu.
    await page.setViewportSize({ width: 1152, height: 780 });
    await gotoHydrated(page, `${origin}/admin`);
    await expect(page.getByRole("banner").getByRole("navigation", { name: "Console" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
    await page.setViewportSize({ width: 1151, height: 780 });
    await expect(page.getByRole("button", { name: "Menu" })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("navigation", { name: "Console" })).toBeHidden();
  } finally {
    await context.close();
  }
});
