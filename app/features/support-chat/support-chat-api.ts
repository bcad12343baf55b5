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

/** The conversation a request opened: its id and the private link that opens it on any browser. */
export interface SubmittedConversation {
  id: string;
  link: string;
}

/** Hands the answers to our server, which stores them before answering 202; throws on anything else. */
export async function postSupportRequest(
  request: SupportRequestInput,
  signal?: AbortSignal,
): Promise<{ id: string; conversation: SubmittedConversation | null }> {
  const response = await fetch("/api/support", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(request),
    signal,
  });
  const body = (await response.json().catch(() => null)) as {
    id?: string;
    error?: string;
    conversation?: Partial<SubmittedConversation>;
  } | null;
  if (response.status !== 202 || typeof body?.id !== "string") {
    throw new SupportRequestError(response.status, body?.error ?? "no details");
  }
  const { id, link } = body.conversation ?? {};
  return { id: body.id, conversation: typeof id === "string" && typeof link === "string" ? { id, link } : null };
}
