import { computeTotal, formatCents } from "~/features/catalog/pricing";
import type { FaqItem } from "~/features/faq/faq.content";
import type { Product } from "~/features/catalog/catalog.content";
import { type AnyLocale, DEFAULT_LOCALE, localeInfo } from "~/features/i18n/locales";

/** schema.org objects for search engines (JSON-LD). Pure: routes pass content and the absolute site URL. */
export type JsonLdObject = Record<string, unknown> & { "@type": string };

export function organizationJsonLd({
  name,
  publicUrl,
  description,
  sameAs = [],
}: {
  name: string;
  publicUrl: string;
  description: string;
  sameAs?: string[];
}): JsonLdObject {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    "@id": `${publicUrl}/#organization`,
    name,
    url: `${publicUrl}/`,
    logo: `${publicUrl}/favicon.svg`,
    description,
    ...(sameAs.length ? { sameAs } : {}),
  };
}

/** One Offer per duration, priced exactly as the product page and checkout price it; `path`: the page's own (`/de/…`). */
export function productJsonLd(
  product: Product,
  publicUrl: string,
  sellerName: string,
  path = `/product/${product.id}`,
): JsonLdObject {
  const url = `${publicUrl}${path}`;
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    "@id": `${url}#product`,
    name: product.name,
    description: product.description,
    sku: String(product.id),
    category: product.category,
    image: product.images.map((image) => absoluteUrl(image.src, publicUrl)),
    url,
    brand: { "@type": "Brand", name: sellerName },
    offers: product.durations.map((duration) => ({
      "@type": "Offer",
      name: duration.label,
      price: formatCents(computeTotal(product, duration)),
      priceCurrency: product.currency,
      // A duration without a shop variant, or with no keys left, cannot be bought online.
      availability:
        duration.variantId === null || duration.stock === 0
          ? "https://schema.org/OutOfStock"
          : "https://schema.org/InStock",
      url: `${url}?duration=${encodeURIComponent(duration.value)}`,
      seller: { "@id": `${publicUrl}/#organization` },
    })),
  };
}

export function breadcrumbJsonLd(trail: Array<{ name: string; path: string }>, publicUrl: string): JsonLdObject {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: trail.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: absoluteUrl(crumb.path, publicUrl),
    })),
  };
}

/** The FAQ as the page shows it: `items` are in `locale`, which the page names as its language. */
export function faqPageJsonLd(items: FaqItem[], locale: AnyLocale = DEFAULT_LOCALE): JsonLdObject {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    inLanguage: localeInfo(locale).tag,
    mainEntity: items.map((item) => ({
      "@type": "Question",
      name: item.question,
      acceptedAnswer: { "@type": "Answer", text: item.answer },
    })),
  };
}

/** JSON for inside a <script> element: `<` is escaped so no text can close the element early. */
export function serializeJsonLd(data: JsonLdObject | JsonLdObject[]): string {
  return JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function absoluteUrl(pathOrUrl: string, publicUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${publicUrl}${pathOrUrl.startsWith("/") ? "" : "/"}${pathOrUrl}`;
}
