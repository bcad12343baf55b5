import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { PageHeader } from "~/components/ui/page-header";
import { getContent } from "~/features/content/content.server";
import { FaqAccordion } from "~/features/faq/faq-accordion";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { useLocale } from "~/features/i18n/use-locale";
import { JsonLd } from "~/features/layout/json-ld";
import { pageMeta } from "~/features/layout/page-meta";
import { faqPageJsonLd } from "~/features/layout/structured-data";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/faq";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader({ request }: Route.LoaderArgs) {
  return { faq: getContent(localeOfRequest(request)).faq };
}

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  return pageMeta(matches[0].loaderData, {
    title: i18n._(msg({ message: "FAQ", comment: "The FAQ page's <title> (Frequently Asked Questions)" })),
    description: i18n._(
      msg`Answers about licences, devices, payment methods, delivery and refunds at Kestrel Software.`,
    ),
    path: localizedPath("/faq", locale),
  });
};

export default function FaqPage({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  const { locale } = useLocale();
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <PageHeader
        title={t`Frequently Asked Questions`}
        description={t({
          message:
            "Quick answers about licences, payments and support. Still stuck? Open the chat at the bottom right.",
          comment: "Where the support chat's button sits: the bottom left corner in right-to-left languages",
        })}
      />
      <FaqAccordion items={loaderData.faq} />
      <JsonLd data={faqPageJsonLd(loaderData.faq, locale)} />
    </div>
  );
}
