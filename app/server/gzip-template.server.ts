import zlib from "node:zlib";

/**
 * Gzip for cached pages whose bytes differ per response only in their slots (the CSP nonce), without compressing
 * per response. Each fixed part is compressed once and ends in a full flush (byte-aligned, and nothing after it
 * refers back across it); per response the slot's bytes go in between as stored (uncompressed) deflate blocks, and
 * only the gzip trailer's CRC-32 is computed. Compressing the whole page per response cost ~10x the serving time.
 */
export interface GzipTemplate {
  /** The fixed parts, as given. */
  parts: Buffer[];
  /** Each part as raw deflate: full flush after all but the last, which ends the stream. */
  compressedParts: Buffer[];
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
const MAX_STORED_BLOCK = 0xffff;

export function compressTemplate(parts: Buffer[]): GzipTemplate {
  const compressedParts = parts.map((part, index) =>
    zlib.deflateRawSync(part, { level: 9, finishFlush: index === parts.length - 1 ? zlib.constants.Z_FINISH : zlib.constants.Z_FULL_FLUSH }),
  );
  return { parts, compressedParts };
}

/** Deflate stored blocks (not final) holding `bytes`; the stream is byte-aligned here, after a full flush. */
function storedBlocks(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += MAX_STORED_BLOCK) {
    const chunk = bytes.subarray(offset, offset + MAX_STORED_BLOCK);
    const header = Buffer.alloc(5);
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(header, chunk);
  }
  return blocks;
}

/** The gzip body, as chunks to write in order, of the template's parts joined with `slot`. */
export function gzipChunks(template: GzipTemplate, slot: Buffer): Buffer[] {
  const chunks: Buffer[] = [GZIP_HEADER];
  // zlib's crc32 answers 0 (the initial value) for an empty buffer whatever the running value: skip those.
  const extend = (crc: number, bytes: Buffer) => (bytes.length > 0 ? zlib.crc32(bytes, crc) : crc);
  let crc = 0;
  let size = 0;
  template.parts.forEach((part, index) => {
    if (index > 0) {
      chunks.push(...storedBlocks(slot));
      crc = extend(crc, slot);
      size += slot.length;
    }
    chunks.push(template.compressedParts[index] as Buffer);
    crc = extend(crc, part);
    size += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  chunks.push(trailer);
  return chunks;
}
