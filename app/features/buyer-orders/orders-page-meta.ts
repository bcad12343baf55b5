import { msg } from "@lingui/core/macro";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta, type RootMetaData } from "~/features/layout/page-meta";

/** The title and description of /orders and of one order's page, which share its canonical /orders address. */
export function ordersPageMeta(root: RootMetaData, pathname: string) {
  const locale = localeOfPath(pathname);
  const i18n = translatorFor(locale);
  return pageMeta(root, {
    title: i18n._(msg`Your orders`),
    description: i18n._(msg`Sign in with a code sent to your email address to see your orders and their keys.`),
    path: localizedPath("/orders", locale),
    noindex: true,
  });
}
