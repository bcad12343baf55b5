import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyAliasRedirects } from "./legacy-aliases.server";

describe("legacy product aliases", () => {
  let server: ReturnType<express.Express["listen"]>;
  let base = "";

  beforeAll(async () => {
    const app = express();
    app.use(legacyAliasRedirects([{ path: "/vault", productId: 446889 }]));
    app.all("/{*splat}", (_req, res) => {
      res.status(404).send("page");
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("answers 301 to the product page, with or without a trailing slash, for GET and HEAD", async () => {
    for (const [path, method] of [
      ["/vault", "GET"],
      ["/vault/", "GET"],
      ["/vault", "HEAD"],
    ]) {
      const res = await fetch(`${base}${path}`, { method, redirect: "manual" });
      expect(res.status, `${method} ${path}`).toBe(301);
      expect(res.headers.get("location")).toBe("/product/446889");
    }
  });

  it("leaves other methods and other paths to the rest of the app", async () => {
    expect((await fetch(`${base}/vault`, { method: "POST", redirect: "manual" })).status).toBe(404);
    expect((await fetch(`${base}/vaults`, { redirect: "manual" })).status).toBe(404);
    expect((await fetch(`${base}/vault/x`, { redirect: "manual" })).status).toBe(404);
  });
});
