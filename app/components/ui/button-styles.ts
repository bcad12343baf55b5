/** Shared button looks for links and buttons (contrast ≥ 4.5:1 on the theme's background, checked at boot; visible focus via :focus-visible). */
const base =
  "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60";

export const buttonStyles = {
  primary: `${base} bg-accent text-on-accent hover:bg-accent-hover`,
  secondary: `${base} border border-foreground/15 bg-foreground/5 text-foreground hover:bg-foreground/10`,
} as const;
