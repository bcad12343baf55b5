import { Plural, Trans, useLingui } from "@lingui/react/macro";
import type { Product } from "../catalog.content";
import { nextVolumeTier, type PriceOptions, sortedVolumeTiers } from "../pricing";

type WithTiers = Partial<Pick<Product, "volumeDiscounts" | "disableVolumeDiscountsWithCoupon">>;

/**
 * The shop's volume discounts as the product page lists them: `5 or more: 10% off`. Said once more when a coupon turns
 * them off (`disable_volume_discounts_if_coupon`), so the total below never surprises.
 */
export function VolumeDiscountTiers({
  product,
  maxQuantity,
  couponEntered,
}: {
  product: WithTiers;
  maxQuantity: number;
  couponEntered: boolean;
}) {
  const { i18n } = useLingui();
  // A tier the buyer cannot reach (above the product's limit or the stock) is not offered.
  const tiers = sortedVolumeTiers(product).filter((tier) => tier.quantity <= maxQuantity);
  if (tiers.length === 0) return null;
  const off = couponEntered && product.disableVolumeDiscountsWithCoupon;
  return (
    <section aria-labelledby="volume-discounts-heading" className="mt-4">
      <h3 id="volume-discounts-heading" className="text-sm font-semibold text-foreground">
        <Trans comment="Heading of a product's volume discounts (a lower price for more keys in one checkout)">
          Volume discounts
        </Trans>
      </h3>
      <ul className="mt-1 flex flex-wrap gap-2 text-sm text-soft" data-testid="volume-tiers">
        {tiers.map((tier) => {
          const quantity = i18n.number(tier.quantity);
          const percent = i18n.number(tier.percent / 100, { style: "percent", maximumFractionDigits: 2 });
          return (
            <li
              key={tier.quantity}
              className={`rounded-lg border border-foreground/15 px-2.5 py-1 tabular-nums ${off ? "line-through" : ""}`}
            >
              <Trans comment="One volume-discount tier: from this many keys in one checkout, this much off">
                {quantity} or more: {percent} off
              </Trans>
            </li>
          );
        })}
      </ul>
      {off ? (
        <p className="mt-1 text-sm text-soft">
          <Trans comment="Under the volume discounts when the buyer entered a coupon and the shop does not combine them">
            Volume discounts do not apply with a coupon.
          </Trans>
        </p>
      ) : null}
    </section>
  );
}

/** `Add 2 more to save 10%` beside the quantity: what the next tier the buyer can reach saves. */
export function NextTierHint({
  product,
  quantity,
  maxQuantity,
  options,
}: {
  product: WithTiers;
  quantity: number;
  maxQuantity: number;
  options: PriceOptions;
}) {
  const { i18n } = useLingui();
  if (!product.volumeDiscounts?.length) return null;
  const next = nextVolumeTier(product, quantity, maxQuantity, options);
  // Always rendered (empty when there is nothing to say), so the polite announcement and the layout stay put.
  return (
    <p id="volume-hint" aria-live="polite" className="mt-2 min-h-5 text-sm font-medium text-success-soft">
      {next ? <NextTierText more={next.more} percent={i18n.number(next.tier.percent / 100, PERCENT)} /> : null}
    </p>
  );
}

const PERCENT = { style: "percent", maximumFractionDigits: 2 } as const;

function NextTierText({ more, percent }: { more: number; percent: string }) {
  return (
    <Plural
      value={more}
      comment="Beside the quantity: how many more keys reach the next volume discount, and what it saves"
      one={`Add # more to save ${percent}`}
      other={`Add # more to save ${percent}`}
    />
  );
}
