/** Small labels such as "Best Seller" or "New". */
export function ProductBadges({ badges, className = "" }: { badges: readonly string[]; className?: string }) {
  if (badges.length === 0) return null;
  return (
    <ul aria-label="Badges" className={`flex flex-wrap gap-1.5 ${className}`}>
      {badges.map((badge) => (
        <li
          key={badge}
          className="rounded-full bg-sky-400/15 px-2.5 py-0.5 text-xs font-semibold text-sky-200 ring-1 ring-sky-400/40"
        >
          {badge}
        </li>
      ))}
    </ul>
  );
}
