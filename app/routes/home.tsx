import { buttonStyles } from "~/components/ui/button-styles";
import { homeTileProducts } from "~/features/catalog/catalog";
import { ProductTileList } from "~/features/catalog/product-tile";
import { getCatalogue } from "~/features/catalog/catalogue.server";
import { getContent } from "~/features/content/content.server";
import { HowItWorks } from "~/features/home/how-it-works";
import { SellingPointsMarquee } from "~/features/home/selling-points-marquee";
import { VideoFacade } from "~/features/home/video-facade";
import { pageMeta } from "~/features/layout/page-meta";
import { Link } from "react-router";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/home";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

export function loader() {
  const { site } = getContent();
  const tiles = homeTileProducts(site.homeTiles, getCatalogue());
  return {
    hero: site.hero,
    tagline: site.tagline,
    description: site.description,
    video: site.video,
    sellingPoints: site.sellingPoints,
    howItWorks: site.howItWorks,
    tiles,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  pageMeta(matches[0].loaderData, {
    title: `${loaderData?.hero.title ?? "Kestrel Software"} | ${loaderData?.tagline ?? ""}`,
    appendBrand: false,
    description: loaderData?.description ?? "",
    path: "/",
    image: loaderData?.video.poster.src,
  });

export default function HomeRoute({ loaderData }: Route.ComponentProps) {
  const { hero, tagline, video, sellingPoints, howItWorks, tiles } = loaderData;
  return (
    <div className="space-y-20 pb-8 sm:space-y-24">
      <section className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 -top-40 h-96 bg-radial from-sky-500/25 to-transparent to-70%"
        />
        <div className="relative mx-auto grid max-w-6xl items-center gap-10 px-4 pt-12 sm:pt-20 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold tracking-widest text-sky-300 uppercase">{tagline}</p>
            <h1 className="mt-3 bg-gradient-to-r from-white to-sky-200 bg-clip-text text-4xl font-extrabold tracking-tight text-transparent sm:text-6xl">
              {hero.title}
            </h1>
            <p className="mt-5 max-w-xl text-lg text-slate-300">{hero.subtitle}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/products" className={`${buttonStyles.primary} px-6 py-3 text-base`}>
                View Products
              </Link>
              <a href="#how-it-works-heading" className={`${buttonStyles.secondary} px-6 py-3 text-base`}>
                How it works
              </a>
            </div>
          </div>
          <VideoFacade video={video} />
        </div>
      </section>

      <SellingPointsMarquee points={sellingPoints} />

      <section aria-labelledby="tiles-heading" className="mx-auto max-w-6xl px-4">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id="tiles-heading" className="text-3xl font-bold text-white">
            Popular products
          </h2>
          <Link to="/products" className="rounded text-sm font-semibold text-sky-300 hover:underline">
            All products <span aria-hidden="true">→</span>
          </Link>
        </div>
        <ProductTileList products={tiles} />
      </section>

      <HowItWorks steps={howItWorks} />
    </div>
  );
}
