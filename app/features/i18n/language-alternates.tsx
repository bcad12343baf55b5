import { useLocation, useRouteError, useRouteLoaderData } from "react-router";
import { languageAlternates, pathWithoutLocale } from "./locales";

/**
 * `<link rel="alternate" hreflang>` for the page in every language and English as `x-default`, so search engines
 * show each searcher the page in their language. Error pages (noindex) get none.
 */
export function LanguageAlternates() {
  const publicUrl = useRouteLoaderData<{ layout?: { publicUrl?: string } }>("root")?.layout?.publicUrl;
  const { pathname } = useLocation();
  const error = useRouteError();
  if (error != null || publicUrl === undefined) return null;
  return languageAlternates(pathWithoutLocale(pathname)).map((alternate) => (
    <link key={alternate.hrefLang} rel="alternate" hrefLang={alternate.hrefLang} href={publicUrl + alternate.path} />
  ));
}
