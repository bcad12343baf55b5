import zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compressTemplate, gzipChunks } from "./gzip-template.server";

const gunzip = (chunks: Buffer[]) => zlib.gunzipSync(Buffer.concat(chunks)).toString();

describe("gzip template", () => {
  it("decompresses to the parts joined with the slot, for any slot, with a valid CRC and size", () => {
    const parts = ['<html><script nonce="', '">boot()</script><style nonce="', '">body{}</style></html>'].map((p) => Buffer.from(p));
    const template = compressTemplate(parts);
    for (const nonce of ["abc123==", "another-nonce-value", ""]) {
      expect(gunzip(gzipChunks(template, Buffer.from(nonce)))).toBe(parts.map(String).join(nonce));
    }
  });

  it("handles a page without slots, empty parts and slots longer than one stored block", () => {
    expect(gunzip(gzipChunks(compressTemplate([Buffer.from("only part")]), Buffer.from("x")))).toBe("only part");
    const long = "n".repeat(70_000);
    expect(gunzip(gzipChunks(compressTemplate([Buffer.alloc(0), Buffer.from("mid"), Buffer.alloc(0)]), Buffer.from(long)))).toBe(`${long}mid${long}`);
  });

  it("round-trips any text split anywhere (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 3000 }), { minLength: 1, maxLength: 6 }), fc.string({ maxLength: 40 }), (parts, slot) => {
        const template = compressTemplate(parts.map((p) => Buffer.from(p)));
        expect(gunzip(gzipChunks(template, Buffer.from(slot)))).toBe(parts.join(slot));
      }),
      { numRuns: 150 },
    );
  });

  it("is much smaller than the page", () => {
    const page = Array.from({ length: 400 }, (_, i) => `<li class="rounded-lg px-4 py-2 text-slate-300">Item ${i}</li>`).join("");
    const template = compressTemplate([Buffer.from(page.slice(0, 9000)), Buffer.from(page.slice(9000))]);
    const size = gzipChunks(template, Buffer.from("nonce")).reduce((sum, c) => sum + c.length, 0);
    expect(size).toBeLessThan(page.length / 5);
  });
});

describe("gzip template with a shared segment", () => {
  it("reuses the segment's compressed bytes on every page and still decodes exactly", () => {
    const stylesheet = Buffer.from(`body{color:red}${".card{padding:1rem}".repeat(500)}`);
    const page = (title: string) => [Buffer.from(`<head><style nonce="`), Buffer.from(`">${stylesheet}</style></head><h1>${title}</h1><script nonce="`), Buffer.from('">x()</script>')];
    const first = compressTemplate(page("One"), [stylesheet]);
    const second = compressTemplate(page("Two"), [stylesheet]);
    expect(gunzip(gzipChunks(first, Buffer.from("n1")))).toBe(page("One").map(String).join("n1"));
    expect(gunzip(gzipChunks(second, Buffer.from("n2")))).toBe(page("Two").map(String).join("n2"));
    const compressedStylesheet = zlib.deflateRawSync(stylesheet, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
    expect(first.compressedParts[1]?.includes(compressedStylesheet)).toBe(true);
  });

  it("works when the segment is absent or is a whole part", () => {
    const segment = Buffer.from("shared");
    expect(gunzip(gzipChunks(compressTemplate([Buffer.from("a"), Buffer.from("b")], [segment]), Buffer.from("-")))).toBe("a-b");
    expect(gunzip(gzipChunks(compressTemplate([segment, segment], [segment]), Buffer.from("|")))).toBe("shared|shared");
  });
});
