import { describe, expect, it } from "vitest";
import { classifyInvoiceEvent, nextOrderStatus } from "./orders";
import { isWithinReplayWindow, signShopNotification, verifyShopSignature } from "./shop-notifications.server";

describe("shop notification events", () => {
  it("reads paid, refunded and failed invoice events", () => {
    expect(classifyInvoiceEvent("NOTIFICATION.SHOP_INVOICE_PROCESSED")).toBe("paid");
    expect(classifyInvoiceEvent("NOTIFICATION.SHOP_INVOICE_PAID")).toBe("paid");
    expect(classifyInvoiceEvent("NOTIFICATION.SHOP_INVOICE_REFUNDED")).toBe("refunded");
    expect(classifyInvoiceEvent("NOTIFICATION.SHOP_INVOICE_CANCELLED")).toBe("failed");
    expect(classifyInvoiceEvent("NOTIFICATION.SHOP_INVOICE_CREATED")).toBe("other");
  });

  it("never moves a completed order back to failed, and refunds only completed ones", () => {
    expect(nextOrderStatus("pending", "paid")).toBe("completed");
    expect(nextOrderStatus("completed", "failed")).toBeUndefined();
    expect(nextOrderStatus("pending", "refunded")).toBeUndefined();
    expect(nextOrderStatus("completed", "refunded")).toBe("refunded");
    expect(nextOrderStatus("completed", "paid")).toBeUndefined();
  });
});

describe("verifyShopSignature", () => {
  const body = Buffer.from('{"event":"NOTIFICATION.SHOP_INVOICE_PROCESSED","data":{"invoice_id":"1"}}');

  it("accepts the hex HMAC-SHA256 of the exact body", () => {
    const signature = signShopNotification(body, "s3cret");
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyShopSignature(body, signature, "s3cret")).toBe(true);
    expect(verifyShopSignature(body, signature.toUpperCase(), "s3cret")).toBe(true);
  });

  it("refuses another secret, another body, a truncated or missing signature", () => {
    const signature = signShopNotification(body, "s3cret");
    expect(verifyShopSignature(body, signature, "other")).toBe(false);
    expect(verifyShopSignature(Buffer.concat([body, Buffer.from(" ")]), signature, "s3cret")).toBe(false);
    expect(verifyShopSignature(body, signature.slice(0, 62), "s3cret")).toBe(false);
    expect(verifyShopSignature(body, undefined, "s3cret")).toBe(false);
    expect(verifyShopSignature(body, "zz".repeat(32), "s3cret")).toBe(false);
  });
});

describe("isWithinReplayWindow", () => {
  const now = new Date("2026-11-21T06:00:00Z");
  const seconds = (offset: number) => String(now.getTime() / 1000 + offset);

  it("accepts five minutes either way, in seconds or milliseconds", () => {
    expect(isWithinReplayWindow(seconds(-300), now)).toBe(true);
    expect(isWithinReplayWindow(seconds(299), now)).toBe(true);
    expect(isWithinReplayWindow(String(now.getTime() - 60_000), now)).toBe(true);
  });

  it("refuses older, later, missing and malformed timestamps", () => {
    expect(isWithinReplayWindow(seconds(-301), now)).toBe(false);
    expect(isWithinReplayWindow(seconds(301), now)).toBe(false);
    expect(isWithinReplayWindow(undefined, now)).toBe(false);
    expect(isWithinReplayWindow("yesterday", now)).toBe(false);
  });
});
