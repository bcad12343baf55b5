import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router";
import { useLocale } from "~/features/i18n/use-locale";
import type { DocEntry, DocsFile } from "./docs.content";
import type { DocsView } from "./docs";

const TYPE_STYLES: Record<DocEntry["type"], string> = {
  error: "bg-danger/15 text-danger-soft ring-danger/40",
  warning: "bg-warning/15 text-warning-soft ring-warning/40",
  info: "bg-accent/15 text-accent-soft ring-accent/40",
};

/** The badge on a docs entry, shown in capitals: what kind of problem the entry is about. */
const TYPE_LABELS: Record<DocEntry["type"], MessageDescriptor> = {
  error: msg({ message: "error", context: "docs entry type", comment: "Badge on a troubleshooting article" }),
  warning: msg({ message: "warning", context: "docs entry type", comment: "Badge on a troubleshooting article" }),
  info: msg({ message: "info", context: "docs entry type", comment: "Badge on a troubleshooting article" }),
};

/** Product choice is a list of plain links (`/docs?product=capture`), so it works without JavaScript. */
export function DocsProductSelector({ view }: { view: DocsView }) {
  const { t } = useLingui();
  const { path } = useLocale();
  return (
    <nav aria-label={t`Choose a product`}>
      <ul className="flex flex-wrap justify-center gap-2">
        {view.options.map((option) => {
          const current = option.slug === view.selected.slug;
          return (
            <li key={option.slug}>
              <Link
                to={path(`/docs?product=${option.slug}`)}
                preventScrollReset
                aria-current={current ? "page" : undefined}
                className={`block rounded-full px-4 py-2 text-sm font-medium ring-1 transition-colors ${current ? "bg-accent text-on-accent ring-accent" : "bg-foreground/5 text-foreground ring-foreground/10 hover:bg-foreground/10"}`}
              >
                {option.name}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function DocEntryCard({ entry }: { entry: DocsView["entries"][number] }) {
  const { i18n } = useLingui();
  return (
    <article
      id={entry.anchor}
      className="scroll-mt-24 rounded-2xl border border-foreground/10 bg-surface/60 p-5 sm:p-6"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h3 className="text-lg font-semibold text-foreground">{entry.title}</h3>
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold uppercase tracking-wide ring-1 ${TYPE_STYLES[entry.type]}`}
        >
          {i18n._(TYPE_LABELS[entry.type])}
        </span>
      </div>
      <p className="mt-3 text-soft">{entry.description}</p>
      <h4 className="mt-4 text-sm font-semibold text-accent-soft">
        <Trans comment="Heading over the steps that fix a problem">Solution</Trans>
      </h4>
      <ol className="mt-2 list-decimal space-y-1 ps-5 text-soft marker:text-link">
        {entry.solution.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </article>
  );
}

export function DocsResources({ resources }: { resources: DocsFile["resources"] }) {
  const { path } = useLocale();
  if (resources.length === 0) return null;
  return (
    <section aria-labelledby="docs-resources" className="mt-12">
      <h2 id="docs-resources" className="text-xl font-semibold text-foreground">
        <Trans>Additional resources</Trans>
      </h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {resources.map((resource) => {
          const external = resource.href.startsWith("https://");
          const className =
            "flex h-full flex-col rounded-xl border border-foreground/10 bg-foreground/5 px-4 py-3 hover:border-accent/60 hover:bg-foreground/10";
          const { label } = resource;
          const body = (
            <>
              <span className="font-semibold text-foreground">
                {external ? (
                  <Trans>
                    {label}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </Trans>
                ) : (
                  label
                )}
              </span>
              <span className="text-sm text-soft">{resource.description}</span>
            </>
          );
          return (
            <li key={resource.href}>
              {external ? (
                <a href={resource.href} target="_blank" rel="noopener noreferrer" className={className}>
                  {body}
                </a>
              ) : (
                <Link to={path(resource.href)} className={className}>
                  {body}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function DocsPage({
  intro,
  view,
  resources,
}: {
  intro: string;
  view: DocsView;
  resources: DocsFile["resources"];
}) {
  const { t } = useLingui();
  const { name } = view.selected;
  const count = view.entries.length;
  return (
    <>
      <DocsProductSelector view={view} />
      <section aria-labelledby="docs-entries" className="mt-10">
        <h2 id="docs-entries" className="text-2xl font-semibold text-foreground">
          <Trans comment="{name} is a product's name">{name} troubleshooting</Trans>
        </h2>
        <p className="mt-1 text-sm text-soft">
          <Trans comment="How many articles the product has, then the docs' introduction (from the content)">
            <Plural value={count} one="# article." other="# articles." /> {intro}
          </Trans>
        </p>
        {view.entries.length > 1 ? (
          <nav aria-label={t`On this page`} className="mt-4">
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {view.entries.map((entry) => (
                <li key={entry.anchor}>
                  <a href={`#${entry.anchor}`} className="rounded text-link underline-offset-2 hover:underline">
                    {entry.title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {/* Steps name paths and settings: a long one breaks rather than push a phone-wide page sideways. */}
        <ul className="mt-6 space-y-4 break-words">
          {view.entries.map((entry) => (
            <li key={entry.anchor}>
              <DocEntryCard entry={entry} />
            </li>
          ))}
        </ul>
      </section>
      <DocsResources resources={resources} />
    </>
  );
}
