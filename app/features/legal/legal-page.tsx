import { Trans, useLingui } from "@lingui/react/macro";
import { formatCalendarDay } from "~/features/i18n/calendar-day";
import type { LegalPageView } from "./legal.server";

/** Typography for rendered Markdown without a plugin: headings, lists, links and emphasis. */
const prose =
  "space-y-4 leading-relaxed text-soft [&_a]:text-link [&_a]:underline [&_a:hover]:text-accent-soft [&_h2]:mt-10 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-foreground [&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-foreground [&_li]:ps-1 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:ps-6 [&_strong]:text-foreground [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:ps-6";

export function LegalPage({ page }: { page: Pick<LegalPageView, "title" | "lastUpdated" | "html"> }) {
  const { i18n } = useLingui();
  const date = formatCalendarDay(i18n, page.lastUpdated, "long");
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <header className="mb-8 border-b border-foreground/10 pb-6">
        {/* German compounds ("Rückerstattungsrichtlinie") are wider than a phone at this size: they may break. */}
        <h1 className="text-3xl font-bold tracking-tight text-foreground break-words hyphens-auto sm:text-4xl">
          {page.title}
        </h1>
        <p className="mt-2 text-sm text-soft">
          <Trans comment="When a legal page last changed">
            Last updated: <time dateTime={page.lastUpdated}>{date}</time>
          </Trans>
        </p>
      </header>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: HTML comes from the operator's own Markdown in content/legal, rendered on the server. */}
      <div className={prose} dangerouslySetInnerHTML={{ __html: page.html }} />
    </article>
  );
}
