import type { LayoutData } from "./layout";
import { pageMeta } from "./seo";

/** pageMeta() for a content page, with the brand and the absolute URL taken from the root loader's layout data. */
export function contentPageMeta(root: { layout: LayoutData } | undefined, { title, description, path }: { title: string; description: string; path: string }) {
  const brand = root?.layout.brand ?? "Kestrel Software";
  return pageMeta({ title: `${title} | ${brand}`, description, path, publicUrl: root?.layout.publicUrl ?? "" });
}
