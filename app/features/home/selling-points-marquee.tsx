import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { useLocale } from "~/features/i18n/use-locale";
import type { Site } from "~/features/layout/site.content";

function PointList({ points, hidden, dir }: { points: Site["sellingPoints"]; hidden?: boolean; dir?: "rtl" }) {
  return (
    <ul
      aria-hidden={hidden || undefined}
      dir={dir}
      // Standing still, the one visible list wraps within the screen instead of running on in one row off its edge.
      className={`flex shrink-0 ${hidden ? "motion-reduce:hidden" : "motion-reduce:w-full motion-reduce:shrink motion-reduce:flex-wrap motion-reduce:justify-center motion-reduce:gap-y-4"}`}
    >
      {points.map((point) => (
        <li key={point.title} className="pe-4">
          <div className="h-full w-64 rounded-xl border border-foreground/10 bg-surface/70 px-5 py-4">
            <p className="font-semibold text-foreground">{point.title}</p>
            <p className="mt-1 text-sm text-soft">{point.description}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * The selling points scrolling past over 25 s. The list is drawn twice for a seamless loop (the copy is hidden from
 * screen readers); it pauses on hover, on focus and with the pause button, and stands still for reduced motion.
 */
export function SellingPointsMarquee({ points }: { points: Site["sellingPoints"] }) {
  const [paused, setPaused] = useState(false);
  const { t } = useLingui();
  // The loop's keyframes slide a left-to-right track by half its width: a right-to-left page keeps the track that way
  // round and lays out each copy of the list right to left.
  const rtl = useLocale().dir === "rtl";
  return (
    <section aria-labelledby="selling-points-heading" className="group/marquee relative">
      <div className="mx-auto mb-4 flex max-w-6xl items-center justify-between gap-4 px-4">
        <h2 id="selling-points-heading" className="text-sm font-semibold tracking-widest text-link uppercase">
          <Trans comment="The heading over the home page's selling points; Kestrel is the shop's name">
            Why Kestrel
          </Trans>
        </h2>
        <button
          type="button"
          aria-pressed={paused}
          onClick={() => setPaused((p) => !p)}
          className="rounded-md border border-foreground/15 px-3 py-1 text-xs text-foreground hover:bg-foreground/10 motion-reduce:hidden"
        >
          {paused ? t`Play animation` : t`Pause animation`}
        </button>
      </div>
      <div dir={rtl ? "ltr" : undefined} className="overflow-hidden mask-x-from-90% motion-reduce:overflow-visible">
        <div
          className={`flex w-max animate-marquee group-focus-within/marquee:[animation-play-state:paused] group-hover/marquee:[animation-play-state:paused] motion-reduce:w-full motion-reduce:animate-none ${
            paused ? "[animation-play-state:paused]" : ""
          }`}
        >
          <PointList points={points} dir={rtl ? "rtl" : undefined} />
          <PointList points={points} dir={rtl ? "rtl" : undefined} hidden />
        </div>
      </div>
    </section>
  );
}
