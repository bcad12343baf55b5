import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { brotliChunks, compressBrotliHead } from "./brotli-template.server";

const decode = (chunks: Buffer[]) => zlib.brotliDecompressSync(Buffer.concat(chunks)).toString();

describe("brotli template", () => {
  const head = Buffer.from(
    `<!DOCTYPE html><html><head><style>${".a{color:red}".repeat(300)}</style></head><body>`.repeat(4),
  );

  it("decodes to the head, the slot and the tail, for each response's own slot", async () => {
    for (const quality of [10, 11]) {
      const compressed = await compressBrotliHead(head, quality);
      expect(compressed.length).toBeLessThan(head.length / 10);
      for (const slot of ["abc", "n0nce+/==xyz0123456789ab"]) {
        const tail = '">close();</script></body></html>';
        expect(decode(brotliChunks(compressed, Buffer.from(slot), Buffer.from(tail)))).toBe(`${head}${slot}${tail}`);
      }
    }
  });

  it("splits a tail past one meta-block's 64 KiB, and takes multi-byte characters whole", async () => {
    const compressed = await compressBrotliHead(Buffer.from("é€"), 11);
    const tail = Buffer.from("ü".repeat(70_000));
    expect(decode(brotliChunks(compressed, Buffer.from("n"), tail))).toBe(`é€n${"ü".repeat(70_000)}`);
  });
});
