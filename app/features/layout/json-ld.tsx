import { type JsonLdObject, serializeJsonLd } from "./structured-data";

/**
 * Structured data for search engines. `type="application/ld+json"` is data, not script: CSP never executes it,
 * so it needs no nonce (and carrying none keeps cached HTML identical apart from the nonce slots).
 */
export function JsonLd({ data }: { data: JsonLdObject | JsonLdObject[] }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: serializeJsonLd escapes "<", so the text cannot leave the element.
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }} />;
}
