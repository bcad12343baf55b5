import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** What the fake vouch page answers next; switch at runtime with `fake.set(...)`. */
export type VouchPageMode =
  | { kind: "html"; html: string; etag?: string }
  | { kind: "status"; status: number; body?: string }
  | { kind: "empty" }
  | { kind: "slow"; delayMs: number; html: string }
  | { kind: "huge"; bytes: number };

export interface VouchPageFake {
  /** The page URL to configure as REVIEWS_SOURCE_URL / REVIEWS_PRODUCT_SOURCE_URL. */
  url: string;
  set(mode: VouchPageMode): void;
  /** Requests answered so far (each one is a fetch of the page). */
  requestCount(): number;
  close(): Promise<void>;
}

const fixturesDir = path.join(import.meta.dirname, "fixtures");

export function vouchFixture(name: "vouch-page" | "vouch-page-hostile"): string {
  return fs.readFileSync(path.join(fixturesDir, `${name}.html`), "utf8");
}

export interface FakeVouch {
  id: string;
  user: string;
  text: string;
  stars: number;
  date?: string;
  avatar?: string;
}

/** A vouch page in the same markup as the fixture, for tests that change the content. */
export function vouchPageHtml(vouches: FakeVouch[]): string {
  const cards = vouches
    .map((v) => {
      const stars = Array.from(
        { length: 5 },
        (_, i) => `<svg class="h-4 w-4 ${i < v.stars ? "text-yellow-400" : "text-gray-600"}"></svg>`,
      ).join("");
      const avatar = v.avatar ? `<img class="vouch-avatar" src="${v.avatar}" alt="">` : "";
      const date = v.date ? `<time class="vouch-date" datetime="${v.date}">${v.date}</time>` : "";
      return `<article class="vouch-card" data-vouch-id="${v.id}">${avatar}<span class="vouch-author">Vouched by @${v.user}</span>${date}<div class="vouch-stars">${stars}</div><p class="vouch-message">${v.text}</p></article>`;
    })
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vouches</title></head><body><main>${cards}</main></body></html>`;
}

/** A real HTTP server on 127.0.0.1 (ephemeral port) playing the shop's public vouch page. */
export async function startVouchPageFake(
  initial: VouchPageMode = { kind: "html", html: vouchFixture("vouch-page") },
): Promise<VouchPageFake> {
  let mode = initial;
  let requests = 0;
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    requests += 1;
    const current = mode;
    switch (current.kind) {
      case "html": {
        if (current.etag && req.headers["if-none-match"] === current.etag) {
          res.writeHead(304, { ETag: current.etag }).end();
          return;
        }
        res
          .writeHead(200, {
            "Content-Type": "text/html; charset=utf-8",
            ...(current.etag ? { ETag: current.etag } : {}),
          })
          .end(current.html);
        return;
      }
      case "status":
        res
          .writeHead(current.status, { "Content-Type": "text/html; charset=utf-8" })
          .end(current.body ?? `<h1>${current.status}</h1>`);
        return;
      case "empty":
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": "0" }).end();
        return;
      case "slow": {
        const timer = setTimeout(
          () => res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(current.html),
          current.delayMs,
        );
        res.on("close", () => clearTimeout(timer));
        return;
      }
      case "huge": {
        // A valid page that keeps going: cards first, then padding until `bytes` were sent (streamed, never buffered whole).
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        const head = vouchPageHtml([
          { id: "big-1", user: "bigpage", text: "First card of a huge page", stars: 3, date: "2026-11-01" },
        ]).replace("</main></body></html>", "");
        let sent = 0;
        const chunk = `<article class="vouch-card"><span class="vouch-author">@padding</span><p class="vouch-message">${"x".repeat(8000)}</p></article>\n`;
        res.write(head);
        sent += Buffer.byteLength(head);
        const pump = () => {
          while (sent < current.bytes) {
            sent += Buffer.byteLength(chunk);
            if (!res.write(chunk)) {
              res.once("drain", pump);
              return;
            }
          }
          res.end("</main></body></html>");
        };
        res.on("error", () => {});
        pump();
        return;
      }
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/vouches/kestrel`,
    set(next) {
      mode = next;
    },
    requestCount: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
