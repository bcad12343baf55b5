import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGE_SUGGESTION_LIMIT } from "~/features/i18n/language-suggestion.api.server";
import { MAX_JSON_BODY_BYTES } from "~/platform/json-body.server";
import { createApiRouter } from "./api.server";

// Each feature router applies its own limit; these pin that the limit still comes before the body is read.
describe("the API router", () => {
  let server: ReturnType<express.Express["listen"]>;
  let base = "";

  beforeAll(async () => {
    const app = express();
    app.use("/api", createApiRouter());
    app.use("/api", (_req, res) => {
      res.status(404).json({ error: "Not found" });
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = (path: string, body: string, contentType = "application/json") =>
    fetch(`${base}/api${path}`, { method: "POST", headers: { "content-type": contentType }, body });

  it("turns a checkout flood away before reading its body: malformed and oversized bodies get 429 once the limit is spent", async () => {
    for (let i = 0; i < 10; i++) {
      const res = await post("/checkout", "{not json");
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "Malformed JSON body" });
    }
    expect((await post("/checkout", "{not json")).status).toBe(429);
    expect((await post("/checkout", JSON.stringify({ pad: "x".repeat(MAX_JSON_BODY_BYTES) }))).status).toBe(429);
    expect((await post("/checkout", "plain", "text/plain")).status).toBe(429);
  });

  it("turns a support flood away before reading its body", async () => {
    for (let i = 0; i < 5; i++) expect((await post("/support", "{not json")).status).toBe(400);
    const limited = await post("/support", "{not json");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({
      error: "Too many support requests. Please wait a few minutes and try again.",
    });
  });

  it("limits language suggestions per client: the request after the allowance gets 429 {error} with Retry-After", async () => {
    const ask = () => fetch(`${base}/api/language-suggestion?path=/faq`, { headers: { "accept-language": "de" } });
    for (let i = 0; i < LANGUAGE_SUGGESTION_LIMIT.points; i++) expect((await ask()).status).toBe(200);
    const limited = await ask();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ error: "Too many language suggestion requests. Please slow down." });
  });

  it("reads shop notification bodies without a limit", async () => {
    for (let i = 0; i < 30; i++) expect((await post("/shop/notifications", "{not json")).status).toBe(400);
  });

  it("checks bodies sent to paths no feature answers, then answers the JSON 404", async () => {
    expect((await post("/nowhere", "plain", "text/plain")).status).toBe(415);
    expect((await post("/nowhere", "{not json")).status).toBe(400);
    expect((await post("/nowhere", JSON.stringify({ pad: "x".repeat(MAX_JSON_BODY_BYTES) }))).status).toBe(413);
    const res = await post("/nowhere", "{}");
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});
