import { msg } from "@lingui/core/macro";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta, type RootMetaData } from "~/features/layout/page-meta";
import { CONVERSATION_PATH } from "./support-conversation";

/** A private page: never indexed, and its canonical address carries no key. */
export function conversationPageMeta(root: RootMetaData, pathname: string) {
  const locale = localeOfPath(pathname);
  const i18n = translatorFor(locale);
  return pageMeta(root, {
    title: i18n._(msg`Your support conversation`),
    description: i18n._(msg`Your conversation with our support team, with their replies.`),
    path: localizedPath(CONVERSATION_PATH, locale),
    noindex: true,
  });
}
