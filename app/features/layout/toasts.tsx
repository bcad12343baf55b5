import { lazy, Suspense, useSyncExternalStore } from "react";
import type { ExternalToast } from "sonner";

// The toast library arrives with the first toast: no page needs it to paint or to become interactive.
const loadSonner = () => import("sonner");
const LazyToaster = lazy(async () => ({ default: (await loadSonner()).Toaster }));

let toasterWanted = false;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The toast region (3 visible, 4 s each), mounted once something has been toasted. */
export function Toasts() {
  const wanted = useSyncExternalStore(
    subscribe,
    () => toasterWanted,
    () => false,
  );
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster visibleToasts={3} duration={4000} theme="dark" position="bottom-left" richColors closeButton />
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
