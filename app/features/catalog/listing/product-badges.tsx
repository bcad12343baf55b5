import { useLingui } from "@lingui/react/macro";
import type { Product } from "../catalog.content";
import { colourClass, colourRef } from "./shop-colours";

type Badge = Product["badges"][number];

export const badgeLabel = (badge: Badge) => (typeof badge === "string" ? badge : badge.label);
export const badgeColour = (badge: Badge) => (typeof badge === "string" ? undefined : badge.color);

/**
 * Small labels such as "Best Seller" or "New" (content text, translated with the product). A badge in the owner's
 * colour takes it (checked for contrast on the server); any other takes the theme's accent.
 */
export function ProductBadges({ badges, className = "" }: { badges: readonly Badge[]; className?: string }) {
  const { t } = useLingui();
  if (badges.length === 0) return null;
  return (
    <ul
      aria-label={t({ message: "Badges", comment: "Names a product's list of labels such as Best Seller" })}
      className={`flex flex-wrap gap-1.5 ${className}`}
    >
      {badges.map((badge) => {
        const colour = badgeColour(badge);
        return (
          <li
            key={badgeLabel(badge)}
            ref={colour ? colourRef(colour) : undefined}
            className={
              colour
                ? `rounded-full bg-(--shop-colour)/15 px-2.5 py-0.5 text-xs font-semibold text-(--shop-colour) ring-1 ring-(--shop-colour)/40 ${colourClass(colour)}`
                : "rounded-full bg-accent/15 px-2.5 py-0.5 text-xs font-semibold text-accent-soft ring-1 ring-accent/40"
            }
          >
            {badgeLabel(badge)}
          </li>
        );
      })}
    </ul>
  );
}

/** The owner's status line ("Undetected", "Updating"): a dot and the text, in the owner's colour when it reads well. */
export function ProductStatus({ status, className = "" }: { status: Product["statusLine"]; className?: string }) {
  if (!status) return null;
  const colour = status.color;
  return (
    <p
      ref={colour ? colourRef(colour) : undefined}
      className={`flex items-center gap-1.5 text-sm font-semibold ${colour ? `text-(--shop-colour) ${colourClass(colour)}` : "text-success-soft"} ${className}`}
      data-testid="product-status"
    >
      <span aria-hidden="true" className="size-2 rounded-full bg-current" />
      {status.text}
    </p>
  );
}

/** Every owner's colour a list of products shows (for ShopColourRules). */
export function coloursOf(products: ReadonlyArray<Pick<Product, "badges"> & Partial<Pick<Product, "statusLine">>>) {
  return products.flatMap((p) => [...p.badges.map(badgeColour), p.statusLine?.color]);
}
