import { data } from "react-router";
import { contentPageMeta } from "~/features/layout/page-meta";
import { LegalPage } from "~/features/legal/legal-page";
import { getLegalPage, isLegalSlug } from "~/features/legal/legal.server";
import type { Route } from "./+types/legal";

const DESCRIPTIONS: Record<string, string> = {
  terms: "The terms that apply when you buy and use Kestrel Software licences.",
  privacy: "What personal data Kestrel Software collects, why, and your rights.",
  refund: "When Kestrel Software refunds a purchase: the 24-hour window, evidence and processing times.",
  dmca: "How to report copyright infringement to Kestrel Software.",
};

// One module serves /terms, /privacy, /refund and /dmca (route ids legal-*); the path names the page.
export function loader({ request }: Route.LoaderArgs) {
  // Client navigations fetch `/refund.data`, so drop that suffix before reading the slug.
  const slug = new URL(request.url).pathname.replace(/\.data$/, "").replace(/^\/+|\/+$/g, "");
  const page = isLegalSlug(slug) ? getLegalPage(slug) : undefined;
  if (!page) throw data(null, { status: 404 });
  return { page };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? contentPageMeta(matches[0].loaderData, { title: loaderData.page.title, description: DESCRIPTIONS[loaderData.page.slug] ?? loaderData.page.title, path: `/${loaderData.page.slug}` })
    : [];

export default function LegalRoute({ loaderData }: Route.ComponentProps) {
  return <LegalPage page={loaderData.page} />;
}
