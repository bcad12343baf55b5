import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * Brotli for cached pages whose bytes differ per response only in one slot near their end (the CSP nonce, ADR 019):
 * everything before the slot is compressed once, at brotli's best, and flushed so the stream is byte-aligned at a
 * meta-block boundary; per response the slot and the short rest follow as an uncompressed meta-block (RFC 7932,
 * 9.2), then the empty last meta-block. Quality 11 costs ~45–65 ms of CPU per page on the thread pool (10 about a
 * third of that), so it is paid once per page version, not per response, and only for pages asked for more than once
 * (render-cache.server.ts). ~15% fewer bytes than the gzip template.
 */
const brotliCompress = promisify(zlib.brotliCompress);

/** The most bytes a tail may have: it goes uncompressed in every response. */
export const MAX_BROTLI_TAIL = 1_024;
const MAX_UNCOMPRESSED_META_BLOCK = 1 << 16;
/** ISLAST and ISLASTEMPTY set: the stream ends. */
const LAST_EMPTY_META_BLOCK = Buffer.from([0b11]);

/**
 * `head` compressed, not finished: the stream can go on at a byte boundary. Quality 8 and below (~1 ms) runs here, on
 * the main thread: on the thread pool, concurrent encoders each take fresh memory (a flood of uncached renders cost
 * ~7 ms of CPU per page that way, mostly page faults); the slower qualities run on the thread pool.
 */
export async function compressBrotliHead(head: Buffer, quality: number): Promise<Buffer> {
  const options: zlib.BrotliOptions = {
    finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      // A window of 256 KB holds any page whole, and costs less memory than the default 4 MB.
      [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: head.length,
    },
  };
  return quality <= 8 ? zlib.brotliCompressSync(head, options) : brotliCompress(head, options);
}

/** Uncompressed meta-blocks holding `bytes`: a 20-bit header (not last, 4 nibbles of length, uncompressed), padded. */
function uncompressedMetaBlocks(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += MAX_UNCOMPRESSED_META_BLOCK) {
    const chunk = bytes.subarray(offset, offset + MAX_UNCOMPRESSED_META_BLOCK);
    const header = ((chunk.length - 1) << 3) | (1 << 19);
    blocks.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), chunk);
  }
  return blocks;
}

/** The brotli body, as chunks to write in order: the compressed head, then the slot and the tail as they are. */
export function brotliChunks(compressedHead: Buffer, slot: Buffer, tail: Buffer): Buffer[] {
  return [compressedHead, ...uncompressedMetaBlocks(Buffer.concat([slot, tail])), LAST_EMPTY_META_BLOCK];
}
