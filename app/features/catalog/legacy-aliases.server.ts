import type { RequestHandler } from "express";
import type { Site } from "~/features/layout/site.content";

/** Old product URLs (content/site.json `legacyAliases`, e.g. `/vault`) answer 301 to the product page, for GET and HEAD. */
export function legacyAliasRedirects(aliases: Site["legacyAliases"]): RequestHandler {
  const productIdByPath = new Map(aliases.map((a) => [a.path, a.productId]));
  return (req, res, next) => {
    const productId = productIdByPath.get(req.path.replace(/\/$/, "") || "/");
    if (productId !== undefined && (req.method === "GET" || req.method === "HEAD")) {
      res.redirect(301, `/product/${productId}`);
      return;
    }
    next();
  };
}
