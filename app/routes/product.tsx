import { displayCurrencyOf } from "~/features/currency/display-currency.server";
import { msg } from "@lingui/core/macro";
import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { data, Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { GeneralErrorBoundary } from "~/components/general-error-boundary";
import {
  onlySelectionChanged,
  quantityBoundsOf,
  parseProductId,
  productPath,
  productTiles,
} from "~/features/catalog/catalog";
import { CatalogueErrorCard } from "~/features/catalog/listing/catalogue-error-card";
import { getCatalogue } from "~/features/catalog/catalogue.server";
import { CompatibilityChips } from "~/features/catalog/product-page/compatibility-chips";
import { DurationPicker, useSelectedDuration } from "~/features/catalog/product-page/duration-picker";
import { FeatureCheckIcon } from "~/features/catalog/listing/product-card";
import { coloursOf, ProductBadges, ProductStatus } from "~/features/catalog/listing/product-badges";
import { ProductTabs } from "~/features/catalog/product-page/product-tabs";
import { ShopColourRules } from "~/features/catalog/listing/shop-colours";
import { ProductGallery } from "~/features/catalog/product-page/product-gallery";
import { ProductPrice } from "~/features/catalog/product-page/product-price";
import { formatPrice, priceLine } from "~/features/catalog/pricing";
import { NextTierHint, VolumeDiscountTiers } from "~/features/catalog/product-page/volume-discounts";
import { PurchaseArea } from "~/features/catalog/product-page/purchase-area";
import { CurrencySwitch } from "~/features/currency/currency-switch";
import { DisplayCurrencyContext } from "~/features/currency/display-currency";
import { QuantityField, useSelectedQuantity } from "~/features/catalog/product-page/quantity-field";
import { checkoutPageSettings } from "~/features/checkout/checkout.server";
import { CouponField, useCouponCode } from "~/features/checkout/coupon-field";
import { RelatedProducts } from "~/features/catalog/product-page/related-products";
import { getContent } from "~/features/content/content.server";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { DEFAULT_LOCALE, localeInfo, localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { useLocale } from "~/features/i18n/use-locale";
import { JsonLd } from "~/features/layout/json-ld";
import { pageMeta } from "~/features/layout/page-meta";
import { breadcrumbJsonLd, productJsonLd } from "~/features/layout/structured-data";
import { ProductReviews } from "~/features/reviews/product-reviews";
import { aggregateRatingProperty } from "~/features/reviews/reviews";
import { cachedReviewsForPage, reviewsAreVerified } from "~/features/reviews/reviews.server";
import type { RouteCacheHandle } from "~/lib/route-cache";
import type { Route } from "./+types/product";

export const handle = { cache: "content" } satisfies RouteCacheHandle;

/** How many products of the same category end the page. */
const RELATED_PRODUCTS = 4;

export async function loader({ params, request }: Route.LoaderArgs) {
  const locale = localeOfRequest(request);
  const id = parseProductId(params.id);
  const catalogue = getCatalogue(locale);
  const product = id === null ? undefined : catalogue.product(id);
  if (!product) throw data({ message: "Product not found" }, { status: 404 });
  const { site } = getContent(locale);
  const categoryLabel = site.categories.find((c) => c.value === product.category)?.label ?? product.category;
  // Whatever is cached now (never waits on the vouch page): rendered with the page and rated in its JSON-LD.
  const reviews = await cachedReviewsForPage("product", product.id);
  const related = productTiles(catalogue.related(product, RELATED_PRODUCTS));
  // The owner's "bought together" products that the catalogue still lists (a hidden one is not offered).
  const boughtTogether = productTiles(
    (product.boughtTogether ?? []).flatMap((other) => (other === product.id ? [] : (catalogue.product(other) ?? []))),
  );
  // Only the shop's verified feedback rates the product for search engines; vouches and curated quotes do not.
  return {
    displayCurrency: displayCurrencyOf(request, locale, getContent(locale)),
    product,
    categoryLabel,
    related,
    boughtTogether,
    reviews,
    ratedByBuyers: reviewsAreVerified(),
    brand: site.brand,
    community: site.community,
    checkout: checkoutPageSettings(),
  };
}

// Changing `?duration=` only moves the selection: nothing to reload.
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && onlySelectionChanged(currentUrl, nextUrl)) return false;
  return defaultShouldRevalidate;
}

const NOT_FOUND = {
  title: msg`Product not found`,
  message: msg`The product you're looking for doesn't exist.`,
};

export const meta: Route.MetaFunction = ({ loaderData, matches, params, location }) => {
  const locale = localeOfPath(location.pathname);
  if (!loaderData) {
    const i18n = translatorFor(locale);
    return pageMeta(matches[0].loaderData, {
      title: i18n._(NOT_FOUND.title),
      description: i18n._(NOT_FOUND.message),
      path: localizedPath(`/product/${params.id}`, locale),
      noindex: true,
    });
  }
  const { product } = loaderData;
  return pageMeta(matches[0].loaderData, {
    title: product.name,
    description: product.description,
    path: localizedPath(productPath(product), locale),
    image: product.cardImage.src,
  });
};

export default function ProductRoute({ loaderData, matches }: Route.ComponentProps) {
  const { product, categoryLabel, brand, community } = loaderData;
  const { t } = useLingui();
  const { locale, path } = useLocale();
  const communityName = community.label;
  // English writes a category in lower case mid-sentence ("More utilities"); other languages keep its own spelling.
  const category = locale === DEFAULT_LOCALE ? categoryLabel.toLowerCase() : categoryLabel;
  const [selected, select] = useSelectedDuration(product);
  const limit = quantityBoundsOf(product, selected);
  const quantity = useSelectedQuantity(limit);
  const coupon = useCouponCode();
  const priceOptions = { coupon: coupon.code.trim() };
  // What the checkout charges: the same rule /api/checkout prices with (volume discount included).
  const line = priceLine(product, selected, quantity.quantity, priceOptions);
  const total = formatPrice(line.totalCents, product.currency);
  const publicUrl = matches[0].loaderData.layout.publicUrl;
  return (
    <DisplayCurrencyContext value={loaderData.displayCurrency}>
      <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
        <JsonLd
          data={[
            {
              ...productJsonLd(product, publicUrl, brand, path(productPath(product))),
              ...(loaderData.ratedByBuyers ? aggregateRatingProperty(loaderData.reviews) : {}),
            },
            breadcrumbJsonLd(
              [
                { name: t`Products`, path: path("/products") },
                { name: product.name, path: path(productPath(product)) },
              ],
              publicUrl,
            ),
          ]}
        />
        <nav aria-label={t`Breadcrumb`} className="mb-6 text-sm text-soft">
          <ol className="flex flex-wrap items-center gap-2">
            <li>
              <Link to={path("/products")} className="rounded hover:text-foreground hover:underline">
                <Trans>Products</Trans>
              </Link>
            </li>
            <li aria-hidden="true">/</li>
            <li>
              <Link
                to={path(`/products?category=${product.category}`)}
                className="rounded hover:text-foreground hover:underline"
              >
                {categoryLabel}
              </Link>
            </li>
            <li aria-hidden="true">/</li>
            <li aria-current="page" className="text-foreground">
              {product.name}
            </li>
          </ol>
        </nav>
        <div className="grid gap-10 lg:grid-cols-2">
          <div className="space-y-6">
            <ProductGallery images={product.images} productName={product.name} />
            <div className="flex flex-wrap items-center gap-3">
              <CompatibilityChips systems={product.compatibility} />
              <a
                href={community.url}
                target="_blank"
                rel="noopener noreferrer"
                className="ms-auto rounded text-sm font-semibold text-link hover:underline"
              >
                <Trans comment="Link to the shop's community (e.g. Join the Discord); the words in brackets are for screen readers only">
                  Join the {communityName}
                  <span className="sr-only"> (opens in a new tab)</span>
                </Trans>
              </a>
            </div>
          </div>
          <div className="space-y-6">
            <ShopColourRules colours={coloursOf([product])} />
            <ProductBadges badges={product.badges} />
            <h1 className="text-3xl font-bold tracking-tight text-foreground sm:text-4xl">{product.name}</h1>
            <ProductStatus status={product.statusLine} />
            <ProductPrice product={product} size="lg" />
            {product.recentSales ? <RecentSalesLine {...product.recentSales} /> : null}
            {product.descriptionHtml ? (
              <div
                // The shop's own description, as its operator wrote it (in English), when the content adds none.
                lang={locale === DEFAULT_LOCALE ? undefined : localeInfo(DEFAULT_LOCALE).tag}
                className="space-y-3 text-lg text-soft [&_a]:text-link [&_a]:underline [&_ol]:list-decimal [&_ol]:ps-6 [&_ul]:list-disc [&_ul]:ps-6"
                // biome-ignore lint/security/noDangerouslySetInnerHtml: the shop's description, sanitised on the server (sanitize-html, a few formatting tags: shop-catalogue.server.ts).
                dangerouslySetInnerHTML={{ __html: product.descriptionHtml }}
              />
            ) : (
              <p className="text-lg text-soft">{product.description}</p>
            )}
            <DurationPicker product={product} selected={selected} onSelect={select}>
              <QuantityField product={product} limit={limit} text={quantity.text} onChange={quantity.change}>
                <NextTierHint
                  product={product}
                  quantity={quantity.quantity}
                  maxQuantity={limit.maxQuantity}
                  options={priceOptions}
                />
              </QuantityField>
              <VolumeDiscountTiers
                product={product}
                maxQuantity={limit.maxQuantity}
                couponEntered={priceOptions.coupon !== ""}
              />
            </DurationPicker>
            <CouponField code={coupon.code} openAtFirst={coupon.openAtFirst} onChange={coupon.change} />
            <div className="space-y-4 rounded-2xl border border-foreground/10 bg-surface/60 p-5">
              {line.discount ? (
                <VolumeDiscountLine
                  percent={line.discount.tier.percent}
                  amount={formatPrice(line.discount.cents, product.currency)}
                  list={formatPrice(line.listCents, product.currency)}
                />
              ) : null}
              <p className="flex items-baseline justify-between gap-4">
                <span id="total-label" className="text-soft">
                  <Trans comment="The price of the chosen licence and quantity">Total</Trans>
                </span>
                <output
                  aria-labelledby="total-label"
                  aria-live="polite"
                  className="text-3xl font-bold text-foreground tabular-nums"
                >
                  {total}
                </output>
              </p>
              <PurchaseArea
                product={product}
                duration={selected}
                quantity={quantity.quantity}
                coupon={coupon.code}
                summary={
                  line.discount
                    ? {
                        discount: {
                          percent: line.discount.tier.percent,
                          amount: formatPrice(line.discount.cents, product.currency),
                        },
                        total,
                      }
                    : undefined
                }
              />
              {loaderData.displayCurrency ? <CurrencySwitch display={loaderData.displayCurrency} /> : null}
            </div>
            {product.features.length > 0 ? (
              <section aria-labelledby="features-heading">
                <h2 id="features-heading" className="text-lg font-semibold text-foreground">
                  <Trans comment="Heading of a product's list of features">Features</Trans>
                </h2>
                <ul className="mt-3 grid gap-2 text-soft sm:grid-cols-2">
                  {product.features.map((feature) => (
                    <li key={feature} className="flex gap-2">
                      <FeatureCheckIcon />
                      {feature}
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
          </div>
        </div>
        {product.tabs?.length ? (
          <ProductTabs
            tabs={product.tabs}
            shopLang={locale === DEFAULT_LOCALE ? undefined : localeInfo(DEFAULT_LOCALE).tag}
          />
        ) : null}
        <RelatedProducts
          id="bought-together-heading"
          heading={t({
            message: "Often bought together",
            comment: "Heading of the products the shop offers with this one",
          })}
          products={loaderData.boughtTogether}
        />
        <div className="mt-16">
          <ProductReviews productId={product.id} initial={loaderData.reviews} />
        </div>
        <RelatedProducts
          heading={t({
            message: `More ${category}`,
            comment:
              "Heading of other products of the same category, e.g. More utilities; the category is lower-cased in English only",
          })}
          products={loaderData.related}
        />
      </div>
    </DisplayCurrencyContext>
  );
}

/** "3 sold in the last 24 hours": the shop's completed invoices, as the owner chose to show them (never an offset). */
function RecentSalesLine({ count, hours }: { count: number; hours: number }) {
  return (
    <p className="-mt-4 text-sm text-soft" data-testid="recent-sales-count">
      <Plural
        value={count}
        comment="How many keys the shop's completed orders sold recently; {hours} is a number of hours"
        one={`# sold in the last ${hours} hours`}
        other={`# sold in the last ${hours} hours`}
      />
    </p>
  );
}

/** The order summary's discount line above the total: `Volume discount (10% off)  −$22.50`, the list price struck. */
function VolumeDiscountLine({ percent, amount, list }: { percent: number; amount: string; list: string }) {
  const { i18n } = useLingui();
  const off = i18n.number(percent / 100, { style: "percent", maximumFractionDigits: 2 });
  return (
    <div className="space-y-1 text-sm" data-testid="volume-discount-line">
      <p className="flex items-baseline justify-between gap-4 text-soft">
        <span>
          <Trans comment="The list price of the chosen licence and quantity, before the volume discount">Price</Trans>
        </span>
        <span className="tabular-nums">{list}</span>
      </p>
      <p className="flex items-baseline justify-between gap-4 font-medium text-success-soft">
        <span>
          <Trans comment="The line of the volume discount taken off the total; {off} is a percentage">
            Volume discount ({off} off)
          </Trans>
        </span>
        <span className="tabular-nums">−{amount}</span>
      </p>
    </div>
  );
}

/** A product page's way out of an error: the catalogue or the home page. */
function ProductErrorCard({ notFound = false }: { notFound?: boolean }) {
  const { i18n, t } = useLingui();
  const { path } = useLocale();
  const title = notFound ? i18n._(NOT_FOUND.title) : t`Unexpected Application Error!`;
  const message = notFound
    ? i18n._(NOT_FOUND.message)
    : t`Something went wrong on our side. Please try again in a moment.`;
  return (
    <CatalogueErrorCard
      title={title}
      message={message}
      onward={{ to: path("/products"), label: <Trans>Browse products</Trans> }}
    />
  );
}

function unexpectedProductError() {
  return <ProductErrorCard />;
}

export function ErrorBoundary() {
  return (
    <GeneralErrorBoundary
      statusHandlers={{ 404: () => <ProductErrorCard notFound /> }}
      defaultStatusHandler={unexpectedProductError}
      unexpectedErrorHandler={unexpectedProductError}
    />
  );
}
