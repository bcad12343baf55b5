import { expect, test } from "@playwright/test";

test("health endpoints answer", async ({ request }) => {
  expect((await request.get("/healthz")).status()).toBe(200);
  const ready = await request.get("/readyz");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toMatchObject({ ok: true });
});

test("the home page renders the brand in the top bar", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("banner").getByRole("link", { name: "Kestrel Software" })).toBeVisible();
  await expect(page.getByText("#1 Provider")).toBeVisible();
});
