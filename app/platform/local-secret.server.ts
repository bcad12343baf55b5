import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "./env.server";

const cache = new Map<string, string>();

/**
 * A random secret generated once and kept in DATA_DIR/secrets/<name> (mode 0600), for settings that may be left
 * unset in embedded mode (ALTCHA HMAC key, demo shop webhook secret). Several app instances must configure it instead.
 */
export function loadOrCreateLocalSecret(name: string, dataDir = getEnv().DATA_DIR): string {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`invalid secret name ${name}`);
  const file = path.join(dataDir, "secrets", name);
  const cached = cache.get(file);
  if (cached) return cached;
  let secret: string;
  try {
    secret = fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const fresh = crypto.randomBytes(32).toString("hex");
    try {
      // "wx" fails when another process created the file first; we then read theirs.
      fs.writeFileSync(file, `${fresh}\n`, { flag: "wx", mode: 0o600 });
      secret = fresh;
    } catch {
      secret = fs.readFileSync(file, "utf8").trim();
    }
  }
  if (secret.length < 32) throw new Error(`secret file ${file} is too short; delete it to regenerate`);
  cache.set(file, secret);
  return secret;
}
