import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

startTransition(() => {
  // The signal the early-click recorder steps aside on (features/layout/boot/boot-state.ts): from `hydrateRoot` on,
  // React listens at the root and replays the events made while it hydrates.
  if (window.__kestrelBoot) window.__kestrelBoot.frameworkAttached = true;
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
