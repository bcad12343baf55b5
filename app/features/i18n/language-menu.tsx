import { useLingui } from "@lingui/react/macro";
import { useLocation } from "react-router";
import { rememberLanguageChoice } from "./language-suggestion";
import { LOCALE_CODES, LOCALES, localizedPath, pathWithoutLocale } from "./locales";
import { useLocale } from "./use-locale";

/**
 * The same page in every language, as plain links (they work without JavaScript, and each language's page loads with
 * only its own messages). A disclosure, so the closed menu costs one line; each name is written in its own language.
 */
export function LanguageMenu({ className = "" }: { className?: string }) {
  const { t } = useLingui();
  const { locale, name } = useLocale();
  const { pathname, search } = useLocation();
  const page = pathWithoutLocale(pathname) + search;
  return (
    <details className={`group relative ${className}`}>
      <summary className="cursor-pointer text-sm text-soft hover:text-foreground">
        <span className="sr-only">{t`Language:`} </span>
        {name}
      </summary>
      <ul
        aria-label={t`Languages`}
        className="absolute start-0 bottom-full z-40 mb-2 min-w-44 rounded-lg border border-border-strong bg-surface p-1"
      >
        {LOCALE_CODES.map((code) => (
          <li key={code}>
            <a
              href={localizedPath(page, code)}
              hrefLang={LOCALES[code].tag}
              lang={LOCALES[code].tag}
              aria-current={code === locale ? "page" : undefined}
              onClick={() => rememberLanguageChoice(code)}
              className="block px-3 py-2 text-sm text-foreground hover:bg-raised aria-[current=page]:text-link"
            >
              {LOCALES[code].name}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}
