import type express from "express";
import { describe, expect, it } from "vitest";
import { sharedRenderRequest } from "./page-handler.server";

/** Just what the shared render reads of an Express request. */
function incoming(originalUrl: string, headers: Record<string, string | string[]>): express.Request {
  return { originalUrl, headers } as unknown as express.Request;
}

describe("shared render request", () => {
  it("is a bodiless GET of the URL at the public origin, without the visitor's credentials", () => {
    const request = sharedRenderRequest(
      incoming("/product/446894?view=grid", {
        host: "attacker.example",
        cookie: "session=secret",
        authorization: "Basic c2VjcmV0",
        "accept-language": "de",
        "user-agent": "Mozilla/5.0",
      }),
      "https://shop.example",
    );
    expect(request.method).toBe("GET");
    expect(request.url).toBe("https://shop.example/product/446894?view=grid");
    expect(request.headers.has("cookie")).toBe(false);
    expect(request.headers.has("authorization")).toBe(false);
    expect(request.headers.get("accept-language")).toBe("de");
    expect(request.headers.get("user-agent")).toBe("Mozilla/5.0");
    expect(request.body).toBeNull();
    expect(request.signal.aborted).toBe(false);
  });

  it("keeps a header sent more than once as one comma-joined value", () => {
    const request = sharedRenderRequest(
      incoming("/", { "x-forwarded-for": ["203.0.113.1", "203.0.113.2"] }),
      "http://127.0.0.1:3000",
    );
    expect(request.headers.get("x-forwarded-for")).toBe("203.0.113.1, 203.0.113.2");
  });
});
