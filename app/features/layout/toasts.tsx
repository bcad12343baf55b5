import { useLingui } from "@lingui/react/macro";
import { lazy, Suspense, useSyncExternalStore } from "react";
import type { ExternalToast } from "sonner";
import { useLocale } from "~/features/i18n/use-locale";

// The toast library arrives with the first toast: no page needs it to paint or to become interactive.
const loadSonner = () => import("sonner");
// Themed in its own chunk, so the theme's toast colours cost the first load nothing either.
const LazyToaster = lazy(() => import("./themed-toaster"));

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
