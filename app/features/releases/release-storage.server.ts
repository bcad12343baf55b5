// Where release files live (ADR 032): one interface; today the embedded one, files on disk under DATA_DIR/releases.
// A file is streamed in and out, hashed on the way in, never held in memory, and stored under a key we made (never
// the uploaded name).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

export interface StoredFile {
  size: number;
  /** Hex. */
  sha256: string;
  /** Base64 (electron-updater's form). */
  sha512: string;
}

export class ReleaseFileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(
      `the file is larger than the limit of ${Math.round((maxBytes / 1_048_576) * 100) / 100} MB (RELEASE_MAX_FILE_MB)`,
    );
    this.name = "ReleaseFileTooLargeError";
  }
}

export interface ReleaseStorage {
  /** Streams `source` into the key, hashing as it goes; past `maxBytes` it stops, keeps nothing and throws. */
  put(key: string, source: Readable, maxBytes: number): Promise<StoredFile>;
  /** Bytes `start`..`end` (inclusive) of the file, or all of it. */
  open(key: string, range?: { start: number; end: number }): Readable;
  /** The stored size, or undefined when the key holds nothing. */
  size(key: string): Promise<number | undefined>;
  remove(key: string): Promise<void>;
}

const KEY = /^[a-z0-9-]{1,64}(\/[a-z0-9-]{1,64})*$/;

/** Counts and hashes what passes; fails once more than `maxBytes` went through. */
function measuring(maxBytes: number) {
  const sha256 = crypto.createHash("sha256");
  const sha512 = crypto.createHash("sha512");
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new ReleaseFileTooLargeError(maxBytes));
      sha256.update(chunk);
      sha512.update(chunk);
      done(null, chunk);
    },
  });
  return {
    stream,
    result: (): StoredFile => ({ size, sha256: sha256.digest("hex"), sha512: sha512.digest("base64") }),
  };
}

/** The embedded storage: `<dataDir>/releases/<key>`, written to a `.part` file first and renamed when complete. */
export function createDiskStorage(dataDir: string): ReleaseStorage {
  const root = path.join(dataDir, "releases");
  const where = (key: string) => {
    if (!KEY.test(key)) throw new Error("a storage key is lower-case letters, digits and dashes, in segments");
    return path.join(root, key);
  };
  return {
    async put(key, source, maxBytes) {
      const target = where(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const part = `${target}.${crypto.randomUUID()}.part`;
      const measure = measuring(maxBytes);
      try {
        await pipeline(source, measure.stream, fs.createWriteStream(part, { flags: "wx" }));
        await fs.promises.rename(part, target);
      } catch (error) {
        await fs.promises.rm(part, { force: true });
        throw error;
      }
      return measure.result();
    },
    open(key, range) {
      return fs.createReadStream(where(key), range ? { start: range.start, end: range.end } : {});
    },
    async size(key) {
      try {
        return (await fs.promises.stat(where(key))).size;
      } catch {
        return undefined;
      }
    },
    async remove(key) {
      await fs.promises.rm(where(key), { force: true });
    },
  };
}
