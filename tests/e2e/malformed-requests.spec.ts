import net from "node:net";
import { expect, test } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";

/** Sends `head` (request line and headers, no blank line) as written, on its own connection; the status line and headers back. */
function rawRequest(
  port: number,
  head: string,
): Promise<{ status: number; headers: Record<string, string>; headerLines: string[]; body: string }> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(port, "127.0.0.1", () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const [top = "", body = ""] = answer.split("\r\n\r\n", 2);
      const [statusLine = "", ...headerLines] = top.split("\r\n");
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(":")).toLowerCase(),
          line.slice(line.indexOf(":") + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, headerLines, body });
    });
  });
}

const CASES = [
  { name: "TRACE on a page", head: "TRACE / HTTP/1.1\r\nHost: localhost", status: 405 },
  { name: "TRACE on an API", head: "TRACE /api/status HTTP/1.1\r\nHost: localhost", status: 405 },
  { name: "a Host with a space", head: "GET /products HTTP/1.1\r\nHost: a b", status: 400 },
  { name: "a Host with two colons", head: "GET /products HTTP/1.1\r\nHost: a:b:c", status: 400 },
  { name: "a Host of %", head: "GET /products HTTP/1.1\r\nHost: %", status: 400 },
  { name: "a Host of <script>", head: "GET /products HTTP/1.1\r\nHost: <script>", status: 400 },
  { name: "a bad Host on an API", head: "GET /api/status HTTP/1.1\r\nHost: a b", status: 400 },
  {
    name: "an X-Forwarded-Proto with a space",
    head: "GET /faq HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: a b",
    status: 400,
  },
  {
    name: "an X-Forwarded-Host with a space",
    head: "GET /faq HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Host: a b",
    status: 400,
  },
  { name: "a path that does not decode", head: "GET /product/%E0%A4%A HTTP/1.1\r\nHost: localhost", status: 400 },
  {
    name: "an API path that does not decode",
    head: "GET /api/orders/%E0%A4%A HTTP/1.1\r\nHost: localhost",
    status: 400,
  },
  { name: "DELETE on a page without an action", head: "DELETE /faq HTTP/1.1\r\nHost: localhost", status: 405 },
  { name: "TRACE on the orders page", head: "TRACE /orders HTTP/1.1\r\nHost: localhost", status: 405 },
  { name: "a bad Host on the orders page", head: "GET /orders HTTP/1.1\r\nHost: a b", status: 400 },
  { name: "an order id that does not decode", head: "GET /orders/%E0%A4%A HTTP/1.1\r\nHost: localhost", status: 400 },
  {
    name: "an empty POST to the orders page",
    head: "POST /de/orders HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\nContent-Length: 0",
    status: 400,
  },
  { name: "DELETE on the demo mailbox", head: "DELETE /demo/mailbox HTTP/1.1\r\nHost: localhost", status: 405 },
];

test.describe("requests no handler can read", () => {
  let server: AppServer;
  test.beforeAll(async () => {
    server = await startAppServer({ env: { LOG_LEVEL: "info" } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("answer 400 or 405 (with Allow), a small page or JSON {error} under /api, never a 500", async () => {
    for (const { name, head, status } of CASES) {
      const answer = await rawRequest(server.port, head);
      expect(answer.status, name).toBe(status);
      if (status === 405) expect(answer.headers.allow, name).toMatch(/GET/);
      if (head.split(" ")[1]?.startsWith("/api/")) {
        expect(answer.headers["content-type"], name).toMatch(/^application\/json/);
        expect(JSON.parse(answer.body), name).toEqual({ error: expect.any(String) });
      } else {
        expect(answer.headers["content-type"], name).toMatch(/^text\/html/);
      }
    }
    // The shop still answers ordinary requests.
    expect((await rawRequest(server.port, "GET /faq HTTP/1.1\r\nHost: localhost")).status).toBe(200);
  });

  test("are logged as one JSON line each, with no stack trace on stdout or stderr", async () => {
    for (const { head } of CASES) await rawRequest(server.port, head);
    await expect.poll(() => server.logs()).toContain("page request refused");
    const lines = server
      .logs()
      .split("\n")
      .filter((line) => line.trim() !== "");
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== "object";
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    const refusals = lines
      .map((line) => JSON.parse(line) as { msg?: string; status?: number; reason?: string })
      .filter((entry) => entry.msg === "request refused" || entry.msg === "page request refused");
    expect(refusals.map((entry) => entry.status)).toEqual(expect.arrayContaining([400, 405]));
    // React Router's own explanation of a 405 is logged, not just its status text.
    expect(refusals).toContainEqual(
      expect.objectContaining({
        msg: "page request refused",
        status: 405,
        reason: expect.stringMatching(/^You made a DELETE request to "\/faq" but did not provide an `action`/),
      }),
    );
  });
});

test.describe("page headers", () => {
  let server: AppServer;
  test.beforeAll(async () => {
    server = await startAppServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("carry one X-Frame-Options whichever way the page was rendered", async () => {
    for (const path of ["/faq", "/faq", "/product/999999", "/purchase/success", "/demo-checkout/none", "/faq.data"]) {
      const answer = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: localhost`);
      expect(
        answer.headerLines.filter((line) => /^x-frame-options:/i.test(line)),
        path,
      ).toHaveLength(1);
    }
  });
});
