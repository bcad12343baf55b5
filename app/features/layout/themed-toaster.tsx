import { Toaster, type ToasterProps } from "sonner";

/** The page's `color-scheme`, which the theme sets on the root (the toaster renders in the browser only). */
function colorSchemeOfPage(): "light" | "dark" {
  return getComputedStyle(document.documentElement).colorScheme === "light" ? "light" : "dark";
}

const tinted = (role: string, percent: number) =>
  `color-mix(in srgb, var(--color-${role}) ${percent}%, var(--color-surface))`;

/** Sonner's colours, from the theme's roles, as the page's status badges use them. */
const THEMED_TOASTS = {
  "--normal-bg": "var(--color-surface)",
  "--normal-bg-hover": "var(--color-raised)",
  "--normal-border": "var(--color-border)",
  "--normal-border-hover": "var(--color-border-strong)",
  "--normal-text": "var(--color-foreground)",
  "--success-bg": tinted("success", 15),
  "--success-border": tinted("success", 40),
  "--success-text": "var(--color-success-soft)",
  "--warning-bg": tinted("warning", 15),
  "--warning-border": tinted("warning", 40),
  "--warning-text": "var(--color-warning-soft)",
  "--error-bg": tinted("danger", 15),
  "--error-border": tinted("danger", 40),
  "--error-text": "var(--color-danger-soft)",
  "--info-bg": tinted("accent", 15),
  "--info-border": tinted("accent", 40),
  "--info-text": "var(--color-accent-soft)",
} as React.CSSProperties;

/** Sonner's toaster in the theme's colours and scheme (content/theme.json). */
export default function ThemedToaster(props: ToasterProps) {
  return <Toaster {...props} theme={colorSchemeOfPage()} style={THEMED_TOASTS} />;
}
