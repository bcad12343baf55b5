/** Shared button looks for links and buttons (contrast ≥ 4.5:1 on slate-950, visible focus via :focus-visible). */
const base =
  "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2.5 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60";

export const buttonStyles = {
  primary: `${base} bg-sky-500 text-slate-950 hover:bg-sky-400`,
  secondary: `${base} border border-white/15 bg-white/5 text-slate-100 hover:bg-white/10`,
} as const;
