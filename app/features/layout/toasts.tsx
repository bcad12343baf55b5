import { useLingui } from "@lingui/react/macro";
import { lazy, Suspense, useSyncExternalStore } from "react";
import type { ExternalToast } from "sonner";
import { useLocale } from "~/features/i18n/use-locale";

// The toast library arrives with the first toast: no page needs it to paint or to become interactive.
const loadSonner = () => import("sonner");
const LazyToaster = lazy(async () => ({ default: (await loadSonner()).Toaster }));

let toasterWanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The toast region (3 visible, 4 s each, in the corner where the page's lines start), mounted once something has been toasted. */
export function Toasts() {
  const { t } = useLingui();
  const { dir } = useLocale();
  const wanted = useSyncExternalStore(
    subscribe,
    () => toasterWanted,
    () => false,
  );
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster
        visibleToasts={3}
        duration={4000}
        theme={colorSchemeOfPage()}
        style={THEMED_TOASTS}
        position={dir === "rtl" ? "bottom-right" : "bottom-left"}
        richColors
        closeButton
        containerAriaLabel={t({
          message: "Notifications",
          comment: "The accessible name of the region toasts appear in",
        })}
        toastOptions={{ closeButtonAriaLabel: t({ message: "Close toast", comment: "A notification's close button" }) }}
      />
    </Suspense>
  );
}

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

async function show(kind: "success" | "error", message: string, data?: ExternalToast) {
  if (!toasterWanted) {
    toasterWanted = true;
    for (const listener of listeners) listener();
  }
  // Sonner replays active toasts to a Toaster that subscribes late, so nothing is lost while it loads.
  const { toast } = await loadSonner();
  toast[kind](message, data);
}

export const toast = {
  success: (message: string, data?: ExternalToast) => void show("success", message, data),
  error: (message: string, data?: ExternalToast) => void show("error", message, data),
};
