import { data, Outlet } from "react-router";
import { DEFAULT_LOCALE, isLocale, PSEUDO_LOCALE } from "~/features/i18n/locales";
import { getEnv } from "~/platform/env.server";
import type { Route } from "./+types/locale";

/**
 * Every page, under the optional locale prefix (`/faq`, `/de/faq`). A first segment that names no locale here (or
 * names English, which has no prefix) is a page that does not exist.
 */
export function loader({ params }: Route.LoaderArgs) {
  const { lang } = params;
  if (lang === undefined) return null;
  if (lang === PSEUDO_LOCALE && getEnv().PSEUDO_LOCALE === "on") return null;
  if (!isLocale(lang) || lang === DEFAULT_LOCALE) throw data(null, { status: 404 });
  return null;
}

export default function LocalePages() {
  return <Outlet />;
}
