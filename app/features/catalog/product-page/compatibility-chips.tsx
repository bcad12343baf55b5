import { useLingui } from "@lingui/react/macro";
import { WindowsLogoIcon } from "~/components/icons";
/** "Works on" chips such as Windows 10 / Windows 11. */
export function CompatibilityChips({ systems }: { systems: readonly string[] }) {
  const { t } = useLingui();
  if (systems.length === 0) return null;
  return (
    <ul
      aria-label={t({ message: "Compatibility", comment: "Names the list of operating systems a product works on" })}
      className="flex flex-wrap gap-2"
    >
      {systems.map((system) => (
        <li
          key={system}
          className="inline-flex items-center gap-1.5 rounded-full border border-foreground/15 bg-foreground/5 px-3 py-1 text-sm text-foreground"
        >
          <WindowsLogoIcon className="size-3.5 text-link" />
          {system}
        </li>
      ))}
    </ul>
  );
}
