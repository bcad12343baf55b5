// Reading a state-changing request before anything else does: it comes from our own pages, and its form is small.
// Shared by the buyer's pages, the console and the conversation page.
import { getEnv } from "./env.server";

/** Bigger form bodies are refused unread, unless the caller allows more (every field of a small form is short). */
export const SMALL_FORM_BYTES = 4096;

/** A state-changing request must come from our own pages: its Origin (or Referer) is this site's. */
export function isOwnOrigin(request: Request): boolean {
  const allowed = new Set([new URL(request.url).origin, new URL(getEnv().PUBLIC_URL).origin]);
  const origin = request.headers.get("Origin");
  if (origin) return allowed.has(origin);
  const referer = request.headers.get("Referer");
  if (!referer) return false;
  try {
    return allowed.has(new URL(referer).origin);
  } catch {
    return false;
  }
}

/** A small urlencoded or multipart form, read at most `maxBytes` deep; undefined for anything else. */
export async function readSmallForm(request: Request, maxBytes = SMALL_FORM_BYTES): Promise<FormData | undefined> {
  const length = Number(request.headers.get("Content-Length") ?? "0");
  if (!Number.isFinite(length) || length > maxBytes || !request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  try {
    return await new Response(new Blob(chunks as BlobPart[]), {
      headers: { "Content-Type": request.headers.get("Content-Type") ?? "" },
    }).formData();
  } catch {
    return undefined;
  }
}
