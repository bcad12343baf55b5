import { PageHeader } from "~/components/ui/page-header";
import { getContent } from "~/features/content/content.server";
import { FaqAccordion } from "~/features/faq/faq-accordion";
import { JsonLd } from "~/features/layout/json-ld";
import { pageMeta } from "~/features/layout/page-meta";
import { faqPageJsonLd } from "~/features/layout/structured-data";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/faq";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader() {
  return { faq: getContent().faq };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches[0].loaderData, {
    title: "FAQ",
    description: "Answers about licences, devices, payment methods, delivery and refunds at Kestrel Software.",
    path: "/faq",
  });

export default function FaqPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <PageHeader
        title="Frequently Asked Questions"
        description="Quick answers about licences, payments and support. Still stuck? Open the chat at the bottom right."
      />
      <FaqAccordion items={loaderData.faq} />
      <JsonLd data={faqPageJsonLd(loaderData.faq)} />
    </div>
  );
}
