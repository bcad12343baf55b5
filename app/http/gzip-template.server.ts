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

const FULL_FLUSH = { level: 6, finishFlush: zlib.constants.Z_FULL_FLUSH };
const compressedShared = new WeakMap<Buffer, Buffer>();

/**
 * Compresses the parts once. A `shared` segment (the inline stylesheet, the same on every page) is compressed the
 * first time only and reused wherever it occurs: it is most of a page's bytes.
 */
export function compressTemplate(parts: Buffer[], shared: Buffer[] = []): GzipTemplate {
  const compressedParts = parts.map((part, index) => {
    const pieces: Buffer[] = [];
    let rest = part;
    for (const segment of shared) {
      const at = segment.length > 0 ? rest.indexOf(segment) : -1;
      if (at < 0) continue;
      pieces.push(zlib.deflateRawSync(rest.subarray(0, at), FULL_FLUSH), compressedSegment(segment));
      rest = rest.subarray(at + segment.length);
    }
    const last = index === parts.length - 1;
    pieces.push(zlib.deflateRawSync(rest, { level: 6, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_FULL_FLUSH }));
    return Buffer.concat(pieces);
  });
  return { parts, compressedParts };
}

function compressedSegment(segment: Buffer): Buffer {
  let compressed = compressedShared.get(segment);
  if (!compressed) {
    compressed = zlib.deflateRawSync(segment, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
    compressedShared.set(segment, compressed);
  }
  return compressed;
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
