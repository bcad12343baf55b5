import { test as base } from "@playwright/test";

/** A random client address; our server trusts X-Forwarded-For from loopback, so each test counts as its own buyer. */
export const clientAddress = () =>
  `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/** Playwright's `test` with a client address of its own per test, so the checkout rate limit is not shared by the suite. */
export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, "X-Forwarded-For": clientAddress() });
  },
});
