import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { DownloadIcon } from "~/components/icons";
import { buttonStyles } from "~/components/ui/button-styles";
import { formatCalendarDay } from "~/features/i18n/calendar-day";
import type { ReleaseAction, ReleaseView } from "~/features/releases/downloads-page.server";
import { sizeParts } from "~/features/releases/releases";

const STATUS_STYLES: Record<ReleaseView["channel"], string> = {
  stable: "bg-success/15 text-success-soft ring-success/40",
  beta: "bg-warning/15 text-warning-soft ring-warning/40",
};

/** The badge on a release, shown in capitals. */
const STATUS_LABELS: Record<ReleaseView["channel"], MessageDescriptor> = {
  stable: msg({ message: "stable", context: "release status", comment: "Badge on a software release" }),
  beta: msg({ message: "beta", context: "release status", comment: "Badge on a software release" }),
};

/** A file's size with the number and the unit as the page's language writes them: "48,2 MB". */
export function fileSize(i18n: I18n, bytes: number): string {
  const { amount, unit, digits } = sizeParts(bytes);
  const size = i18n.number(amount, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  if (unit === "B") return i18n._(msg({ message: `${size} bytes`, comment: "A file's size in bytes" }));
  if (unit === "KB") return i18n._(msg({ message: `${size} KB`, comment: "An installer's size in kilobytes" }));
  if (unit === "GB") return i18n._(msg({ message: `${size} GB`, comment: "An installer's size in gigabytes" }));
  return i18n._(msg({ message: `${size} MB`, comment: "An installer's size in megabytes" }));
}

/** Release notes in the Markdown we write: paragraphs and `- ` lists. */
function Notes({ text }: { text: string }) {
  const blocks = text.trim().split(/\n\s*\n/);
  return (
    <div className="mt-1 space-y-2 text-sm text-soft">
      {blocks.map((block) => {
        const lines = block.split("\n");
        if (lines.every((line) => /^\s*[-*] /.test(line)))
          return (
            <ul key={block} className="list-disc space-y-0.5 ps-5">
              {lines.map((line) => (
                <li key={line}>{line.replace(/^\s*[-*] /, "")}</li>
              ))}
            </ul>
          );
        return <p key={block}>{block.replace(/^#+\s*/, "")}</p>;
      })}
    </div>
  );
}

/** Copies the checksum; shown once the page runs JavaScript (without it the checksum is there to select). */
function CopyChecksum({ value, label }: { value: string; label: string }) {
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setReady(typeof navigator !== "undefined" && navigator.clipboard !== undefined), []);
  if (!ready) return null;
  return (
    <button
      type="button"
      className={`${buttonStyles.secondary} px-2 py-1 text-xs`}
      aria-label={label}
      onClick={() => void navigator.clipboard.writeText(value).then(() => setCopied(true))}
    >
      {copied ? (
        <Trans comment="The checksum was copied">Copied</Trans>
      ) : (
        <Trans comment="Copies a checksum">Copy</Trans>
      )}
      <span className="sr-only" role="status">
        {copied ? <Trans comment="Told to screen readers after copying a checksum">SHA-256 copied</Trans> : null}
      </span>
    </button>
  );
}

function ActionLink({ action, productName, version }: { action: ReleaseAction; productName: string; version: string }) {
  const className = `${buttonStyles.primary} w-full sm:w-auto`;
  switch (action.kind) {
    case "download":
      return (
        <a href={action.href} className={className}>
          <DownloadIcon className="size-4" />
          <Trans comment="Button on a release">Download</Trans>
        </a>
      );
    case "sign-in":
      return (
        <a href={action.href} className={className}>
          <Trans comment="Button on a release for a signed-out visitor">Sign in to download</Trans>
        </a>
      );
    case "buy":
      return (
        <a href={action.href} className={className}>
          <Trans comment="Button on a release for a visitor who has not bought the product">Buy {productName}</Trans>
        </a>
      );
    case "renew":
      return (
        <a href={action.href} className={className}>
          <Trans comment="Button on a release that came out after the buyer's licence ended">
            Renew to get {version}
          </Trans>
        </a>
      );
    case "length-unknown":
      return (
        <p className="text-sm text-soft">
          <Trans>
            The shop does not say how long your licence lasts, so this version is not opened.{" "}
            <a href={action.href} className="underline">
              Go to your orders
            </a>
          </Trans>
        </p>
      );
  }
}

export function DownloadCard({ release, allVersionsHref }: { release: ReleaseView; allVersionsHref?: string }) {
  const { t, i18n } = useLingui();
  const headingId = `download-${release.id}`;
  const { productName, version } = release;
  const date = formatCalendarDay(i18n, release.date);
  const total = release.files.reduce((sum, f) => sum + f.size, 0);
  const size = fileSize(i18n, total);
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full min-w-0 flex-col rounded-2xl border border-foreground/10 bg-surface/60 p-5 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-lg font-semibold text-foreground">
            {productName}
          </h2>
          <p className="mt-0.5 text-sm text-soft">
            <Trans comment="A release's version, installer size and release date">
              Version {version} · {size} · <time dateTime={release.date}>{date}</time>
            </Trans>
          </p>
        </div>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold uppercase tracking-wide ring-1 ${STATUS_STYLES[release.channel]}`}
        >
          {i18n._(STATUS_LABELS[release.channel])}
        </span>
      </div>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <div>
          <h3 className="text-sm font-semibold text-accent-soft">
            <Trans comment="System requirements of a release">Requirements</Trans>
          </h3>
          <ul className="mt-1 list-disc space-y-0.5 ps-5 text-sm text-soft">
            {release.requirements.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="text-sm font-semibold text-accent-soft">
            <Trans comment="Heading over a release's changelog">What's new</Trans>
          </h3>
          <Notes text={release.notes} />
        </div>
      </div>
      <ul className="mt-auto space-y-4 pt-5">
        {release.files.map((file) => (
          <li key={file.name} className="min-w-0 space-y-2">
            <p className="break-all text-sm text-foreground">
              {file.name} <span className="text-soft">({fileSize(i18n, file.size)})</span>
            </p>
            <div className="flex min-w-0 flex-wrap items-center gap-2 text-xs text-soft">
              <span>SHA-256</span>
              <code lang="zxx" className="min-w-0 break-all font-mono" data-testid="sha256">
                {file.sha256}
              </code>
              <CopyChecksum value={file.sha256} label={t`Copy the SHA-256 of ${file.name}`} />
            </div>
            <ActionLink action={file.action} productName={productName} version={version} />
          </li>
        ))}
      </ul>
      {allVersionsHref ? (
        <a href={allVersionsHref} className="mt-4 text-sm text-link underline">
          <Trans comment="Link from a release to the product's page of every release">
            All versions of {productName}
          </Trans>
        </a>
      ) : null}
    </article>
  );
}

export function DownloadList({
  releases,
  versionsHref,
}: {
  releases: ReleaseView[];
  /** Where a product's every release is listed (the main page links each card there). */
  versionsHref?: (release: ReleaseView) => string;
}) {
  if (releases.length === 0)
    return (
      <p className="text-soft">
        <Trans>No releases have been published yet.</Trans>
      </p>
    );
  return (
    <ul className="grid gap-5 md:grid-cols-2">
      {releases.map((release) => (
        <li key={release.id}>
          <DownloadCard release={release} allVersionsHref={versionsHref?.(release)} />
        </li>
      ))}
    </ul>
  );
}
