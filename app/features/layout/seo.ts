import type { MetaDescriptor } from "react-router";

/** Title, description and an absolute canonical <link> (a `tagName: "link"` descriptor, not a <meta>). */
export function pageMeta({ title, description, path, publicUrl, image }: { title: string; description: string; path: string; publicUrl: string; image?: string }): MetaDescriptor[] {
  const url = `${publicUrl}${path}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: "website" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
  ];
  if (image) {
    tags.push({ property: "og:image", content: `${publicUrl}${image}` }, { name: "twitter:image", content: `${publicUrl}${image}` });
  }
  return tags;
}
