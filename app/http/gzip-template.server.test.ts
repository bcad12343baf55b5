import zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compressTemplate, gzipChunks } from "./gzip-template.server";

const gunzip = (chunks: Buffer[]) => zlib.gunzipSync(Buffer.concat(chunks)).toString();

describe("gzip template", () => {
  it("decompresses to the parts joined with the slot, for any slot, with a valid CRC and size", () => {
    const parts = ['<html><script nonce="', '">boot()</script><style nonce="', '">body{}</style></html>'].map((p) =>
      Buffer.from(p),
    );
    const template = compressTemplate(parts);
    for (const nonce of ["abc123==", "another-nonce-value", ""]) {
      expect(gunzip(gzipChunks(template, Buffer.from(nonce)))).toBe(parts.map(String).join(nonce));
    }
  });

  it("handles a page without slots, empty parts and slots longer than one stored block", () => {
    expect(gunzip(gzipChunks(compressTemplate([Buffer.from("only part")]), Buffer.from("x")))).toBe("only part");
    const long = "n".repeat(70_000);
    expect(
      gunzip(gzipChunks(compressTemplate([Buffer.alloc(0), Buffer.from("mid"), Buffer.alloc(0)]), Buffer.from(long))),
    ).toBe(`${long}mid${long}`);
  });

  it("round-trips any text split anywhere (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 3000 }), { minLength: 1, maxLength: 6 }),
        fc.string({ maxLength: 40 }),
        (parts, slot) => {
          const template = compressTemplate(parts.map((p) => Buffer.from(p)));
          expect(gunzip(gzipChunks(template, Buffer.from(slot)))).toBe(parts.join(slot));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("is much smaller than the page", () => {
    const page = Array.from(
      { length: 400 },
      (_, i) => `<li class="rounded-lg px-4 py-2 text-slate-300">Item ${i}</li>`,
    ).join("");
    const template = compressTemplate([Buffer.from(page.slice(0, 9000)), Buffer.from(page.slice(9000))]);
    const size = gzipChunks(template, Buffer.from("nonce")).reduce((sum, c) => sum + c.length, 0);
    expect(size).toBeLessThan(page.length / 5);
  });
});

describe("gzip template for slots of one length", () => {
  const page = (title: string) =>
    [
      `<head><style nonce="`,
      `">${".card{padding:1rem}".repeat(200)}</style></head><h1 class="card">${title}</h1><script nonce="`,
      `">x()</script><p class="card">${title}</p>`,
    ].map((p) => Buffer.from(p));

  it("decodes exactly and is smaller than parts compressed on their own", () => {
    const nonce = "n0nce+of/24characters===";
    const primed = compressTemplate(page("One"), nonce.length);
    expect(gunzip(gzipChunks(primed, Buffer.from(nonce)))).toBe(page("One").map(String).join(nonce));
    const size = (chunks: Buffer[]) => chunks.reduce((sum, c) => sum + c.length, 0);
    expect(size(gzipChunks(primed, Buffer.from(nonce)))).toBeLessThan(
      size(gzipChunks(compressTemplate(page("One")), Buffer.from(nonce))) - 20,
    );
  });

  it("round-trips any text and any slot of that length (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 3000 }), { minLength: 1, maxLength: 6 }),
        fc.string({ minLength: 24, maxLength: 24, unit: "binary-ascii" }),
        (parts, slot) => {
          const template = compressTemplate(
            parts.map((p) => Buffer.from(p)),
            24,
          );
          expect(gunzip(gzipChunks(template, Buffer.from(slot)))).toBe(parts.join(slot));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("answers a slot of another length, and parts holding NUL bytes, correctly", () => {
    const template = compressTemplate(page("Two"), 8);
    expect(gunzip(gzipChunks(template, Buffer.from("longer than eight")))).toBe(
      page("Two").map(String).join("longer than eight"),
    );
    const withNul = [Buffer.from("a\0\0\0\0b"), Buffer.from("\0\0\0\0c")];
    const unprimed = compressTemplate(withNul, 4);
    expect(unprimed.slotLength).toBeUndefined();
    expect(gunzip(gzipChunks(unprimed, Buffer.from("\0\0\0\0")))).toBe("a\0\0\0\0b\0\0\0\0\0\0\0\0c");
  });
});
