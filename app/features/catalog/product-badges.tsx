import { useLingui } from "@lingui/react/macro";

/** Small labels such as "Best Seller" or "New" (content text, translated with the product). */
export function ProductBadges({ badges, className = "" }: { badges: readonly string[]; className?: string }) {
  const { t } = useLingui();
  if (badges.length === 0) return null;
  return (
    <ul
      aria-label={t({ message: "Badges", comment: "Names a product's list of labels such as Best Seller" })}
      className={`flex flex-wrap gap-1.5 ${className}`}
    >
      {badges.map((badge) => (
        <li
          key={badge}
          className="rounded-full bg-accent/15 px-2.5 py-0.5 text-xs font-semibold text-accent-soft ring-1 ring-accent/40"
        >
          {badge}
        </li>
      ))}
    </ul>
  );
}
