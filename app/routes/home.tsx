import { msg } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { buttonStyles } from "~/components/ui/button-styles";
import { homeTileProducts } from "~/features/catalog/catalog";
import { ProductTileList } from "~/features/catalog/listing/product-tile";
import { getCatalogue } from "~/features/catalog/catalogue.server";
import { getContent } from "~/features/content/content.server";
import { DisplayCurrencyContext } from "~/features/currency/display-currency";
import { displayCurrencyOf } from "~/features/currency/display-currency.server";
import { HowItWorks } from "~/features/home/how-it-works";
import { SellingPointsMarquee } from "~/features/home/selling-points-marquee";
import { VideoFacade } from "~/features/home/video-facade";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { useLocale } from "~/features/i18n/use-locale";
import { pageMeta } from "~/features/layout/page-meta";
import { Link } from "react-router";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/home";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader({ request }: Route.LoaderArgs) {
  const locale = localeOfRequest(request);
  const content = getContent(locale);
  const { site } = content;
  const tiles = homeTileProducts(site.homeTiles, getCatalogue(locale));
  return {
    displayCurrency: displayCurrencyOf(request, locale, content),
    hero: site.hero,
    tagline: site.tagline,
    description: site.description,
    video: site.video,
    sellingPoints: site.sellingPoints,
    howItWorks: site.howItWorks,
    tiles,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) => {
  const locale = localeOfPath(location.pathname);
  const title = loaderData?.hero.title ?? "Kestrel Software";
  const tagline = loaderData?.tagline ?? "";
  return pageMeta(matches[0].loaderData, {
    title: translatorFor(locale)._(
      msg({ message: `${title} | ${tagline}`, comment: "The home page's <title>: the shop's name, then its tagline" }),
    ),
    appendBrand: false,
    description: loaderData?.description ?? "",
    path: localizedPath("/", locale),
    image: loaderData?.video.poster.src,
  });
};

export default function HomeRoute({ loaderData }: Route.ComponentProps) {
  const { hero, tagline, video, sellingPoints, howItWorks, tiles } = loaderData;
  const { path, dir } = useLocale();
  // A text arrow is not mirrored by the bidi algorithm, so a right-to-left page gets the one pointing its way.
  const arrow = dir === "rtl" ? "←" : "→";
  return (
    <div className="space-y-20 pb-8 sm:space-y-24">
      <section className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 -top-40 h-96 bg-radial from-accent/25 to-transparent to-70%"
        />
        <div className="relative mx-auto grid max-w-6xl items-center gap-10 px-4 pt-12 sm:pt-20 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold tracking-widest text-link uppercase">{tagline}</p>
            <h1 className="mt-3 bg-gradient-to-r from-foreground to-accent-soft bg-clip-text text-4xl font-extrabold tracking-tight text-transparent sm:text-6xl">
              {hero.title}
            </h1>
            <p className="mt-5 max-w-xl text-lg text-soft">{hero.subtitle}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to={path("/products")} className={`${buttonStyles.primary} px-6 py-3 text-base`}>
                <Trans>View Products</Trans>
              </Link>
              <a href="#how-it-works-heading" className={`${buttonStyles.secondary} px-6 py-3 text-base`}>
                <Trans>How it works</Trans>
              </a>
            </div>
          </div>
          <VideoFacade video={video} />
        </div>
      </section>

      <SellingPointsMarquee points={sellingPoints} />

      <section aria-labelledby="tiles-heading" className="mx-auto max-w-6xl px-4">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id="tiles-heading" className="text-3xl font-bold text-foreground">
            <Trans>Popular products</Trans>
          </h2>
          <Link to={path("/products")} className="rounded text-sm font-semibold text-link hover:underline">
            <Trans comment="{arrow} is → (← in right-to-left languages), pointing onwards to the catalogue">
              All products <span aria-hidden="true">{arrow}</span>
            </Trans>
          </Link>
        </div>
        <DisplayCurrencyContext value={loaderData.displayCurrency}>
          <ProductTileList products={tiles} />
        </DisplayCurrencyContext>
      </section>

      <HowItWorks steps={howItWorks} />
    </div>
  );
}
