import type { SupportRequestInput } from "./support-chat";

/** Our server did not take the request; `status` says why (429: this visitor has sent too many for now). */
export class SupportRequestError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`Support request rejected (${status}): ${detail}`);
  }
}

/** Hands the answers to our server, which stores them before answering 202; throws on anything else. */
export async function postSupportRequest(request: SupportRequestInput, signal?: AbortSignal): Promise<{ id: string }> {
  const response = await fetch("/api/support", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(request),
    signal,
  });
  const body = (await response.json().catch(() => null)) as { id?: string; error?: string } | null;
  if (response.status !== 202 || typeof body?.id !== "string") {
    throw new SupportRequestError(response.status, body?.error ?? "no details");
  }
  return { id: body.id };
}
