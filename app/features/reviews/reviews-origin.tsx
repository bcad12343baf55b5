import { Trans } from "@lingui/react/macro";
import type { ReviewOrigin } from "./reviews";

/**
 * One sentence, wherever reviews or a rating are shown, saying where they come from (the EU's Unfair Commercial
 * Practices Directive, Art. 7(6), asks a trader who gives access to reviews to say whether and how it checks that
 * they come from buyers). Nothing when the origin is not known.
 */
export function ReviewsOrigin({ origin, className = "" }: { origin: ReviewOrigin | undefined; className?: string }) {
  if (!origin) return null;
  return (
    <p className={`text-sm text-soft ${className}`} data-testid="reviews-origin">
      {origin === "shop" ? (
        <Trans comment="Where reviews come from: the connected shop's feedback, left after a paid order">
          These reviews are the shop's feedback, which only the buyer of a paid order can leave. Feedback the shop left
          automatically is not counted in the rating.
        </Trans>
      ) : origin === "vouch" ? (
        <Trans comment="Where reviews come from: the shop's vouch page (its community), not checked against orders">
          These reviews are copied from our community's vouch page; they are not checked against orders.
        </Trans>
      ) : (
        <Trans comment="Where reviews come from: quotes the shop chose itself, not checked against orders">
          These reviews are quotes we chose from customers' messages; they are not checked against orders.
        </Trans>
      )}
    </p>
  );
}
