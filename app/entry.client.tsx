import { I18nProvider } from "@lingui/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { activateLocale } from "~/features/i18n/i18n.client";
import { localeOfPath } from "~/features/i18n/locales";
import { provideTranslators } from "~/features/i18n/translator";

// The page's language comes from its URL, as on the server; its messages load before React hydrates.
const i18n = await activateLocale(localeOfPath(window.location.pathname));
provideTranslators(() => i18n);

startTransition(() => {
  // The signal the early-click recorder steps aside on (features/layout/boot/boot-state.ts): from `hydrateRoot` on,
  // React listens at the root and replays the events made while it hydrates.
  if (window.__kestrelBoot) window.__kestrelBoot.frameworkAttached = true;
  hydrateRoot(
    document,
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <HydratedRouter />
      </I18nProvider>
    </StrictMode>,
  );
});
