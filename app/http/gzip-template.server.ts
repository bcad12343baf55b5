import zlib from "node:zlib";

/**
 * Gzip for cached pages whose bytes differ per response only in their slots (the CSP nonce), without compressing
 * per response. Each fixed part is compressed once and ends byte-aligned; per response the slot's bytes go in
 * between as stored (uncompressed) deflate blocks, and only the gzip trailer's CRC-32 is computed. Compressing the
 * whole page per response cost ~10x the serving time.
 *
 * When every slot has one known length (a nonce always does), each part is compressed as a continuation of the
 * parts before it (a preset dictionary of them, slots as NUL bytes), so it refers back to them as whole-page gzip
 * would: ~1.5 KB less per page than parts compressed on their own. No back-reference can reach a slot's bytes, as
 * no part holds a NUL byte (a part that does turns priming off), so the distances hold whatever the slot says.
 */
export interface GzipTemplate {
  /** The fixed parts, as given. */
  parts: Buffer[];
  /** Each part as raw deflate: flushed after all but the last, which ends the stream. */
  compressedParts: Buffer[];
  /** The slot length the parts were compressed for; a slot of another length gets the page compressed whole. */
  slotLength?: number;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
const MAX_STORED_BLOCK = 0xffff;
const DEFLATE_WINDOW = 32 * 1024;

/** Compresses the parts once; with `slotLength`, each part continues from the ones before it. */
export function compressTemplate(parts: Buffer[], slotLength?: number): GzipTemplate {
  const primed = slotLength !== undefined && !parts.some((part) => part.includes(0));
  const placeholder = Buffer.alloc(slotLength ?? 0);
  let history = Buffer.alloc(0);
  const compressedParts = parts.map((part, index) => {
    const last = index === parts.length - 1;
    const options: zlib.ZlibOptions = {
      level: 6,
      finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_FULL_FLUSH,
    };
    if (primed && history.length > 0) options.dictionary = history;
    const compressed = zlib.deflateRawSync(part, options);
    if (primed && !last) history = Buffer.concat([history, part, placeholder]).subarray(-DEFLATE_WINDOW);
    return compressed;
  });
  return { parts, compressedParts, slotLength: primed ? slotLength : undefined };
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
  if (template.slotLength !== undefined && slot.length !== template.slotLength)
    return [zlib.gzipSync(Buffer.concat(template.parts.flatMap((part, index) => (index > 0 ? [slot, part] : [part]))))];
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
