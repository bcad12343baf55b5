import { Trans, useLingui } from "@lingui/react/macro";
import { StarIcon } from "~/components/icons";
import { formatCalendarDay } from "~/features/i18n/calendar-day";
import { DEFAULT_LOCALE, localeInfo } from "~/features/i18n/locales";
import { MAX_RATING, type Review, VERIFIED_BUYER } from "./reviews";

/** Reviews and the shop's replies are written by people, in the shop's own language, and are not translated. */
const WRITTEN_IN = localeInfo(DEFAULT_LOCALE).tag;

/** Filled and empty stars with one accessible name ("4 out of 5 stars"). */
export function StarRating({ rating }: { rating: number }) {
  const { t } = useLingui();
  const max = MAX_RATING;
  return (
    <span role="img" aria-label={t`${rating} out of ${max} stars`} className="flex gap-0.5">
      {Array.from({ length: MAX_RATING }, (_, i) => (
        <StarIcon key={i} className={`size-4 ${i < rating ? "text-warning" : "text-border-strong"}`} />
      ))}
    </span>
  );
}

/**
 * One review, titled by its author (lists sit under an h2); every field is plain text rendered by React (escaped), the
 * avatar is https: or our default. What people wrote (names, the review, the reply) takes the direction of its own
 * text (`dir="auto"`), so English on a right-to-left page, or Arabic on a left-to-right one, reads the right way round.
 */
export function ReviewCard({ review }: { review: Review }) {
  const { t, i18n } = useLingui();
  // The shop's own buyers are signed with a label of ours (reviews.server.ts), which is shown in the page's language.
  const author = !review.verified
    ? `@${review.user}`
    : review.user === VERIFIED_BUYER
      ? t({
          message: "Verified buyer",
          comment: "Signs a review from a buyer of a paid order (the shop gives no names)",
        })
      : review.user;
  return (
    <article className="flex h-full flex-col rounded-2xl border border-foreground/10 bg-surface/60 p-5">
      <div className="flex items-center gap-3">
        <img
          src={review.avatar}
          alt=""
          width={40}
          height={40}
          loading="lazy"
          referrerPolicy="no-referrer"
          className="size-10 rounded-full bg-raised"
        />
        <div className="min-w-0">
          <h3 dir="auto" className="truncate font-semibold text-foreground">
            {author}
          </h3>
          <StarRating rating={review.rating} />
        </div>
      </div>
      {review.comment ? (
        <p lang={WRITTEN_IN} dir="auto" className="mt-3 break-words text-soft">
          {review.comment}
        </p>
      ) : null}
      {review.reply ? (
        <blockquote className="mt-3 rounded-lg border-s-2 border-accent/60 bg-foreground/5 px-3 py-2 text-sm break-words text-soft">
          <p className="font-semibold text-foreground">
            <Trans>Reply from the shop</Trans>
          </p>
          <p lang={WRITTEN_IN} dir="auto" className="mt-1">
            {review.reply}
          </p>
        </blockquote>
      ) : null}
      <p className="mt-auto pt-3 text-xs text-soft">
        <time dateTime={review.date}>{formatCalendarDay(i18n, review.date)}</time>
      </p>
    </article>
  );
}

export function ReviewList({ reviews }: { reviews: Review[] }) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {reviews.map((review) => (
        <li key={review.id}>
          <ReviewCard review={review} />
        </li>
      ))}
    </ul>
  );
}
