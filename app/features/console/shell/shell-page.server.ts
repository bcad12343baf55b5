// The console's frame on the server: its language (the URL's prefix; unprefixed, the person's choice or their
// browser's), and who is signed in, for the navigation.
import { data, redirect } from "react-router";
import { negotiateLocale } from "~/features/i18n/language-negotiation";
import { DEFAULT_LOCALE, isLocale, localizedPath, PSEUDO_LOCALE, pathWithoutLocale } from "~/features/i18n/locales";
import { getEnv } from "~/platform/env.server";
import { NO_STORE, requireOwnOrigin, sessionOfRequest } from "~/features/staff/door.server";
import { readSmallForm } from "~/platform/form-request.server";
import type { ConsoleViewer } from "./shell-page";

export const CONSOLE_LANGUAGE_COOKIE = "kestrel-console-language";

function chosenLanguage(request: Request): string | undefined {
  const header = request.headers.get("Cookie");
  if (!header) return undefined;
  const match = new RegExp(`(?:^|;\\s*)${CONSOLE_LANGUAGE_COOKIE}=([a-z-]{2,5})(?:;|$)`).exec(header);
  return match?.[1];
}

export async function loadConsoleLayout(
  request: Request,
  lang: string | undefined,
): Promise<{ viewer: ConsoleViewer | null }> {
  if (lang !== undefined && !(lang === PSEUDO_LOCALE && getEnv().PSEUDO_LOCALE === "on")) {
    if (!isLocale(lang) || lang === DEFAULT_LOCALE) throw data(null, { status: 404, headers: NO_STORE });
  }
  if (lang === undefined && request.method === "GET") {
    // An unprefixed console page opens in the language chosen in the menu, else the browser's first one we speak.
    const chosen = chosenLanguage(request);
    const wanted =
      chosen !== undefined && isLocale(chosen)
        ? chosen
        : negotiateLocale(request.headers.get("Accept-Language") ?? undefined);
    if (wanted && wanted !== DEFAULT_LOCALE) {
      const url = new URL(request.url);
      throw redirect(localizedPath(url.pathname, wanted) + url.search, {
        status: 303,
        headers: { ...NO_STORE, Vary: "Accept-Language, Cookie" },
      });
    }
  }
  const session = await sessionOfRequest(request);
  const viewer =
    session && session.beganWith === "passkey" ? { email: session.staff.email, role: session.staff.role } : null;
  return { viewer };
}

/** The language menu's form: keeps the choice for a year and opens the same console page in it. */
export async function chooseConsoleLanguage(request: Request) {
  requireOwnOrigin(request);
  const form = await readSmallForm(request);
  const locale = form?.get("locale");
  const to = form?.get("to");
  if (typeof locale !== "string" || !isLocale(locale))
    throw data({ error: "Unknown language." }, { status: 400, headers: NO_STORE });
  const target =
    typeof to === "string" && /^\/admin(?:[/?]|$)/.test(pathWithoutLocale(to.split("?")[0] ?? "")) ? to : "/admin";
  const [pathname, search] = target.split("?", 2);
  const headers = new Headers(NO_STORE);
  headers.append("Set-Cookie", `${CONSOLE_LANGUAGE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax`);
  return redirect(localizedPath(pathWithoutLocale(pathname ?? "/admin"), locale) + (search ? `?${search}` : ""), {
    status: 303,
    headers,
  });
}
