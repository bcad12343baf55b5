import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { DownloadIcon } from "~/components/icons";
import { buttonStyles } from "~/components/ui/button-styles";
import { formatCalendarDay } from "~/features/i18n/calendar-day";
import type { Download } from "./downloads.content";

/** Installers are delivered with the licence after purchase; this page only describes releases. */
const DOWNLOAD_NOTICE = msg`Download would start here. Please purchase the product first.`;

const STATUS_STYLES: Record<Download["status"], string> = {
  stable: "bg-success/15 text-success-soft ring-success/40",
  beta: "bg-warning/15 text-warning-soft ring-warning/40",
  new: "bg-accent/15 text-accent-soft ring-accent/40",
};

/** The badge on a release, shown in capitals. */
const STATUS_LABELS: Record<Download["status"], MessageDescriptor> = {
  stable: msg({ message: "stable", context: "release status", comment: "Badge on a software release" }),
  beta: msg({ message: "beta", context: "release status", comment: "Badge on a software release" }),
  new: msg({ message: "new", context: "release status", comment: "Badge on a software release" }),
};

/** "48.2 MB" (the content's form) with the number and the unit as the page's language writes them: "48,2 MB". */
function installerSize(i18n: I18n, text: string): string {
  const [, amount = "0", decimals = "", unit] = /^(\d+(?:\.(\d+))?) (KB|MB|GB)$/.exec(text) ?? [];
  const size = i18n.number(Number(amount), {
    minimumFractionDigits: decimals.length,
    maximumFractionDigits: decimals.length,
  });
  if (unit === "KB") return i18n._(msg({ message: `${size} KB`, comment: "An installer's size in kilobytes" }));
  if (unit === "GB") return i18n._(msg({ message: `${size} GB`, comment: "An installer's size in gigabytes" }));
  return i18n._(msg({ message: `${size} MB`, comment: "An installer's size in megabytes" }));
}

export function DownloadCard({ download }: { download: Download }) {
  const { t, i18n } = useLingui();
  const headingId = `download-${download.id}`;
  const { name, version } = download;
  const size = installerSize(i18n, download.size);
  const date = formatCalendarDay(i18n, download.date);
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col rounded-2xl border border-foreground/10 bg-surface/60 p-5 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-lg font-semibold text-foreground">
            {name}
          </h2>
          <p className="mt-0.5 text-sm text-soft">
            <Trans comment="A release's version, installer size and release date">
              Version {version} · {size} · <time dateTime={download.date}>{date}</time>
            </Trans>
          </p>
        </div>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold uppercase tracking-wide ring-1 ${STATUS_STYLES[download.status]}`}
        >
          {i18n._(STATUS_LABELS[download.status])}
        </span>
      </div>
      <p className="mt-3 text-soft">{download.description}</p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <div>
          <h3 className="text-sm font-semibold text-accent-soft">
            <Trans comment="System requirements of a release">Requirements</Trans>
          </h3>
          <ul className="mt-1 list-disc space-y-0.5 ps-5 text-sm text-soft">
            {download.requirements.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="text-sm font-semibold text-accent-soft">
            <Trans comment="Heading over a release's changelog">What's new</Trans>
          </h3>
          <ul className="mt-1 list-disc space-y-0.5 ps-5 text-sm text-soft">
            {download.changelog.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      </div>
      <div className="mt-auto pt-5">
        <button
          type="button"
          className={`${buttonStyles.primary} w-full sm:w-auto`}
          aria-label={t`Download ${name} ${version}`}
          onClick={() => window.alert(i18n._(DOWNLOAD_NOTICE))}
        >
          <DownloadIcon className="size-4" />
          <Trans comment="Button on a release">Download</Trans>
        </button>
      </div>
    </article>
  );
}

export function DownloadList({ downloads }: { downloads: Download[] }) {
  return (
    <ul className="grid gap-5 md:grid-cols-2">
      {downloads.map((download) => (
        <li key={download.id}>
          <DownloadCard download={download} />
        </li>
      ))}
    </ul>
  );
}
