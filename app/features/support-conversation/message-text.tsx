import { textParts } from "./conversation-text";

/**
 * Text someone wrote, as text: http(s) addresses become links that pass no referrer trust (nofollow ugc noopener) and
 * open in the same tab; nothing else in it can become markup, a script or a style.
 */
export function MessageText({ body }: { body: string }) {
  return (
    <>
      {textParts(body).map((part, i) =>
        part.kind === "link" ? (
          <a key={i} href={part.href} rel="nofollow ugc noopener" className="underline">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
