import { msg } from "@lingui/core/macro";
import express from "express";
import { type RateLimitPolicy, rateLimit } from "~/platform/rate-limit.server";
import { i18nFor } from "./i18n.server";
import { negotiateLocale } from "./language-negotiation";
import { LANGUAGE_CHOICE_COOKIE, type LanguageSuggestion } from "./language-suggestion";
import { LOCALES, localeOfPath, localizedPath, pathWithoutLocale } from "./locales";

/**
 * Per client address. Asked once per page load until the visitor chooses: far above what a person (or an office behind
 * one address) loads in a minute, far below a script's flood.
 */
export const LANGUAGE_SUGGESTION_LIMIT: RateLimitPolicy = {
  name: "languageSuggestion",
  points: 200,
  durationSeconds: 60,
  error: "Too many language suggestion requests. Please slow down.",
};

const CHOICE = new RegExp(`(?:^|;\\s*)${LANGUAGE_CHOICE_COOKIE}=`);

/** A site path to suggest for (`?path=/faq?x=1`), or the home page for anything else. */
function sitePath(value: unknown): string {
  return typeof value === "string" && /^\/(?![/\\])/.test(value) && value.length <= 2000 ? value : "/";
}

/**
 * `GET /api/language-suggestion?path=…`: whether to offer the visitor the page in the language their browser prefers
 * (`Accept-Language`), worded in that language. Asked by the page after it loads, so pages themselves never depend on
 * the header or the cookie and stay shared; once the visitor chose or dismissed, the cookie says so and nothing is
 * offered. Never a redirect: crawlers and shared links keep the URL they asked for.
 */
export function createLanguageSuggestionApi() {
  const router = express.Router();
  router.get("/language-suggestion", rateLimit(LANGUAGE_SUGGESTION_LIMIT), (req, res) => {
    res.vary("Accept-Language").vary("Cookie");
    const path = sitePath(req.query.path);
    const suggested = negotiateLocale(req.get("accept-language"));
    if (CHOICE.test(req.get("cookie") ?? "") || !suggested || suggested === localeOfPath(path)) {
      res.json({ suggestion: null });
      return;
    }
    const i18n = i18nFor(suggested);
    const { tag, dir, name } = LOCALES[suggested];
    const suggestion: LanguageSuggestion = {
      locale: suggested,
      tag,
      dir,
      href: localizedPath(pathWithoutLocale(path), suggested),
      label: i18n._(msg`Language suggestion`),
      text: i18n._(msg`This page is also available in ${name}.`),
      switchLabel: i18n._(msg`Show it in ${name}`),
      dismissLabel: i18n._(msg`No, thanks`),
    };
    res.json({ suggestion });
  });
  return router;
}
