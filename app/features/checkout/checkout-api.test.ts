import { describe, expect, it } from "vitest";
import { requestCheckout } from "./checkout-api";

const answer = (status: number, body: string, contentType = "application/json") =>
  (async () => new Response(body, { status, headers: { "Content-Type": contentType } })) as typeof fetch;
const input = { productId: 446894, variantId: 653023, altcha: "payload" };

describe("requestCheckout", () => {
  it("opens the checkout URL the server returns", async () => {
    expect(
      await requestCheckout(input, answer(200, JSON.stringify({ url: "/demo-checkout/demo-1", orderId: "o1" }))),
    ).toEqual({
      kind: "open",
      url: "/demo-checkout/demo-1",
      orderId: "o1",
    });
  });

  it("shows the provider's error text as it is", async () => {
    expect(await requestCheckout(input, answer(422, JSON.stringify({ error: "Product is out of stock" })))).toEqual({
      kind: "alert",
      message: "Product is out of stock",
    });
  });

  it('says "No checkout URL returned. Please try again." without a (safe) url', async () => {
    expect(await requestCheckout(input, answer(200, "{}"))).toEqual({
      kind: "alert",
      message: "No checkout URL returned. Please try again.",
    });
    expect(await requestCheckout(input, answer(200, JSON.stringify({ url: "javascript:alert(1)" })))).toEqual({
      kind: "alert",
      message: "No checkout URL returned. Please try again.",
    });
  });

  it('falls back to "An error occurred during checkout" for an answer it cannot read', async () => {
    expect(await requestCheckout(input, answer(502, "<html>Bad gateway</html>", "text/html"))).toEqual({
      kind: "alert",
      message: "An error occurred during checkout",
    });
  });

  it("shows the network error's message", async () => {
    const offline = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    expect(await requestCheckout(input, offline)).toEqual({ kind: "alert", message: "Failed to fetch" });
  });

  it("sends quantity 1 and never a price", async () => {
    let sent: unknown;
    const capture = (async (_url: string, init: RequestInit) => {
      sent = JSON.parse(String(init.body));
      return new Response(JSON.stringify({ url: "/x" }));
    }) as unknown as typeof fetch;
    await requestCheckout(input, capture);
    expect(sent).toEqual({ productId: 446894, variantId: 653023, quantity: 1, altcha: "payload" });
  });
});
