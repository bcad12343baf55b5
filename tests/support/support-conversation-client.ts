import type { Challenge } from "altcha-lib";
/** The conversation cookie's name (app/features/support-conversation/support-conversation.ts; not imported: plain Node runs this). */
const CONVERSATION_COOKIE = "kestrel_support_conversation";
import { solveCaptchaPayload } from "./captcha-solver.ts";

export interface OpenedThroughApi {
  requestId: string;
  conversationId: string;
  /** The browser key, as the HttpOnly cookie carries it. */
  token: string;
  /** `kestrel_support_conversation=<token>`, for a Cookie header. */
  cookie: string;
  link: string;
}

/** A Key Reset request sent as the chat sends it (captcha solved), and the conversation the answer binds. */
export async function openConversationThroughApi(
  base: string,
  options: { client?: string; email?: string } = {},
): Promise<OpenedThroughApi> {
  const forwarded: Record<string, string> = options.client ? { "x-forwarded-for": options.client } : {};
  const challenge = (await (await fetch(`${base}/api/captcha/challenge`, { headers: forwarded })).json()) as Challenge;
  const res = await fetch(`${base}/api/support`, {
    method: "POST",
    headers: { "content-type": "application/json", ...forwarded },
    body: JSON.stringify({
      category: "Key Reset",
      answers: ["Kestrel Vault", "New PC", options.email ?? "visitor@example.com"],
      altcha: await solveCaptchaPayload(challenge),
    }),
  });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`POST /api/support answered ${res.status}: ${text}`);
  const body = JSON.parse(text) as { id: string; conversation: { id: string; link: string } };
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((pair) => pair.startsWith(`${CONVERSATION_COOKIE}=`));
  if (!cookie) throw new Error("POST /api/support set no conversation cookie");
  return {
    requestId: body.id,
    conversationId: body.conversation.id,
    token: cookie.slice(CONVERSATION_COOKIE.length + 1),
    cookie,
    link: body.conversation.link,
  };
}
