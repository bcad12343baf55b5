import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId } from "react";
import { Form, Link } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { useLocale } from "~/features/i18n/use-locale";
import { IncidentStatusBadge, IncidentText } from "~/features/status/incident-parts";
import {
  type DisplayStatus,
  INCIDENT_STATUSES,
  type Incident,
  incidentPath,
  KNOWN_STATUSES,
} from "~/features/status/status";
import { INCIDENT_STATUS_NAMES, STATUS_LEGEND } from "~/features/status/status-messages";
import { ConsoleHeading } from "../shell/console-heading";
import { ConsoleNotice } from "../shell/console-notice";
import { consoleField } from "../shell/console-field";
import { useConsoleTime } from "../shell/console-clock";
import type { IncidentDraft, StatusNotice } from "./status-page.server";

export interface StatusConsoleProduct {
  name: string;
  status: DisplayStatus;
  updatedAt: string;
}

/** The legend's names ("Operational", "Maintenance", "Outage"), as the status page writes them. */
const STATUS_LABELS = Object.fromEntries(STATUS_LEGEND.map((entry) => [entry.status, entry.label])) as Record<
  DisplayStatus,
  MessageDescriptor
>;

const SUCCESSES: ReadonlyArray<StatusNotice["kind"]> = [
  "status-saved",
  "status-unchanged",
  "published",
  "updated",
  "preview",
];

function NoticeText({ notice }: { notice: StatusNotice }) {
  const { i18n } = useLingui();
  switch (notice.kind) {
    case "status-saved": {
      const status = i18n._(STATUS_LABELS[notice.status]);
      return (
        <Trans>
          {notice.product} is now shown as {status} on the status page.
        </Trans>
      );
    }
    case "status-unchanged":
      return <Trans>{notice.product} already had that status: nothing changed.</Trans>;
    case "published":
      return <Trans>Incident published: {notice.title}.</Trans>;
    case "updated": {
      const status = i18n._(INCIDENT_STATUS_NAMES[notice.status]);
      return (
        <Trans>
          Update posted: {notice.title} is now {status}.
        </Trans>
      );
    }
    case "preview":
      return <Trans>The preview shows the message as the status page will. Nothing is published yet.</Trans>;
    case "bad-title":
      return <Trans>Give the incident a title of 1 to 200 characters.</Trans>;
    case "bad-body":
      return <Trans>Write a message of 1 to 2,000 characters.</Trans>;
    case "bad-status":
      return <Trans>Choose one of the states in the list.</Trans>;
    case "bad-product":
      return <Trans>Choose products from the list; the status page has no product of that name.</Trans>;
    case "already-resolved":
      return <Trans>That incident is already resolved.</Trans>;
    default:
      return <Trans>That incident or product no longer exists. Reload the page.</Trans>;
  }
}

function IncidentStateOptions() {
  const { i18n } = useLingui();
  return (
    <>
      {INCIDENT_STATUSES.map((status) => (
        <option key={status} value={status}>
          {i18n._(INCIDENT_STATUS_NAMES[status])}
        </option>
      ))}
    </>
  );
}

/** The message field, its Preview button and, once asked for, the message as /status will show it. */
function MessageField({ draft, maxLength }: { draft: IncidentDraft | undefined; maxLength: number }) {
  const hintId = useId();
  const previewId = useId();
  return (
    <>
      <label className="block text-sm">
        <span className="block text-soft">
          <Trans>Message</Trans>
        </span>
        <textarea
          name="body"
          required
          rows={5}
          maxLength={maxLength}
          defaultValue={draft?.body ?? ""}
          aria-describedby={hintId}
          className={`${consoleField} mt-1`}
        />
      </label>
      <p id={hintId} className="mt-1 text-soft text-xs">
        <Trans>Markdown: **bold**, *italic*, [link](https://…), lists</Trans>
      </p>
      {draft ? (
        <section aria-labelledby={previewId} className="mt-3 rounded-lg border border-border-strong bg-background p-4">
          <p id={previewId} className="font-semibold text-foreground text-sm">
            <Trans>Preview</Trans>
          </p>
          <IncidentText html={draft.html} className="mt-2" />
        </section>
      ) : null}
    </>
  );
}

function ProductStatusForm({ product }: { product: StatusConsoleProduct }) {
  const { t, i18n } = useLingui();
  const time = useConsoleTime();
  const name = product.name;
  return (
    <li className="rounded-lg border border-border-strong bg-surface p-4">
      <Form method="post" className="flex flex-wrap items-end gap-3" key={`${product.status}-${product.updatedAt}`}>
        <input type="hidden" name="product" value={name} />
        <label className="min-w-0 flex-1 text-sm">
          <span className="block font-semibold text-foreground">{name}</span>
          <span className="block text-soft text-xs">
            <Trans>Since {time(product.updatedAt)}</Trans>
          </span>
          <select
            name="status"
            aria-label={t`Status of ${name}`}
            defaultValue={product.status === "unknown" ? "" : product.status}
            required
            className={`${consoleField} mt-1`}
          >
            {product.status === "unknown" ? (
              <option value="" disabled>
                {t`Unknown`}
              </option>
            ) : null}
            {KNOWN_STATUSES.map((status) => (
              <option key={status} value={status}>
                {i18n._(STATUS_LABELS[status])}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" name="intent" value="status" className={buttonStyles.primary}>
          <Trans>Save</Trans>
        </button>
      </Form>
    </li>
  );
}

function OpenIncident({
  incident,
  draft,
  maxBody,
}: {
  incident: Incident;
  draft: IncidentDraft | undefined;
  maxBody: number;
}) {
  const { path } = useLocale();
  const time = useConsoleTime();
  const headingId = useId();
  const title = incident.title;
  return (
    <li className="rounded-lg border border-border-strong bg-surface p-4">
      <h3 id={headingId} className="flex flex-wrap items-center gap-2 font-semibold text-foreground">
        <Link to={path(incidentPath(incident.id))} dir="auto" className="underline underline-offset-4">
          {title}
        </Link>
        <IncidentStatusBadge status={incident.status} />
      </h3>
      <p className="mt-1 text-soft text-sm">
        {incident.products.length > 0 ? <>{incident.products.join(", ")} · </> : null}
        <Trans>
          Since {time(incident.startedAt)} · last update {time(incident.updates[0]?.at ?? incident.startedAt)}
        </Trans>
      </p>
      <IncidentText html={incident.html} className="mt-2" />
      <Form
        method="post"
        aria-labelledby={headingId}
        className="mt-4 space-y-3 border-border border-t pt-4"
        key={`${incident.id}-${incident.updates.length}`}
      >
        <input type="hidden" name="incident" value={incident.id} />
        <label className="block text-sm">
          <span className="block text-soft">
            <Trans>State</Trans>
          </span>
          <select
            name="status"
            defaultValue={draft?.status ?? incident.status}
            required
            className={`${consoleField} mt-1 sm:w-64`}
          >
            <IncidentStateOptions />
          </select>
        </label>
        <MessageField draft={draft} maxLength={maxBody} />
        <div className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value="preview" formNoValidate className={buttonStyles.secondary}>
            <Trans>Preview</Trans>
          </button>
          <button type="submit" name="intent" value="update" className={buttonStyles.primary}>
            <Trans>Post update</Trans>
          </button>
        </div>
      </Form>
    </li>
  );
}

function NewIncidentForm({
  products,
  draft,
  publishedId,
  limits,
}: {
  products: StatusConsoleProduct[];
  draft: IncidentDraft | undefined;
  publishedId: number | undefined;
  limits: { title: number; body: number };
}) {
  const { t } = useLingui();
  return (
    <Form method="post" className="space-y-4" key={publishedId === undefined ? "new" : `after-${publishedId}`}>
      <label className="block text-sm">
        <span className="block text-soft">
          <Trans>Title</Trans>
        </span>
        <input
          name="title"
          required
          maxLength={limits.title}
          defaultValue={draft?.title ?? ""}
          dir="auto"
          className={`${consoleField} mt-1`}
        />
      </label>
      <fieldset>
        <legend className="text-soft text-sm">
          <Trans>Affected products</Trans>
        </legend>
        <ul className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
          {products.map((product) => (
            <li key={product.name}>
              <label className="flex min-h-11 items-center gap-2 text-foreground text-sm">
                <input
                  type="checkbox"
                  name="products"
                  value={product.name}
                  defaultChecked={draft?.products.includes(product.name) ?? false}
                  className="size-4"
                />
                {product.name}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <label className="block text-sm">
        <span className="block text-soft">
          <Trans>State</Trans>
        </span>
        <select
          name="status"
          defaultValue={draft?.status ?? "investigating"}
          required
          aria-label={t`State of the new incident`}
          className={`${consoleField} mt-1 sm:w-64`}
        >
          <IncidentStateOptions />
        </select>
      </label>
      <MessageField draft={draft} maxLength={limits.body} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" name="intent" value="preview" formNoValidate className={buttonStyles.secondary}>
          <Trans>Preview</Trans>
        </button>
        <button type="submit" name="intent" value="publish" className={buttonStyles.primary}>
          <Trans>Publish</Trans>
        </button>
      </div>
    </Form>
  );
}

export function StatusConsolePage({
  products,
  incidents,
  limits,
  notice,
  draft,
}: {
  products: StatusConsoleProduct[];
  incidents: Incident[];
  limits: { title: number; body: number };
  notice: StatusNotice | null;
  draft: IncidentDraft | undefined;
}) {
  const { t } = useLingui();
  const { path } = useLocale();
  const failed = notice !== null && !SUCCESSES.includes(notice.kind);
  const publishedId = notice?.kind === "published" ? notice.id : undefined;
  return (
    <div className="max-w-3xl">
      <ConsoleHeading title={t`Status and incidents`}>
        <Trans>
          What visitors see on{" "}
          <Link to={path("/status")} className="underline">
            the status page
          </Link>
          , its incident pages and its feed. Every change shows there at once and is told to the support channel.
        </Trans>
      </ConsoleHeading>
      {notice ? (
        <ConsoleNotice failed={failed}>
          <NoticeText notice={notice} />
        </ConsoleNotice>
      ) : null}
      <section aria-labelledby="products-heading">
        <h2 id="products-heading" className="font-semibold text-foreground text-xl">
          <Trans>Products</Trans>
        </h2>
        <p className="mt-1 text-soft text-sm">
          <Trans>Maintenance is not downtime: it does not lower a product's uptime.</Trans>
        </p>
        <ul className="mt-4 space-y-3">
          {products.map((product) => (
            <ProductStatusForm key={product.name} product={product} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="open-incidents-heading" className="mt-10">
        <h2 id="open-incidents-heading" className="font-semibold text-foreground text-xl">
          <Trans>Open incidents</Trans>
        </h2>
        {incidents.length === 0 ? (
          <p className="mt-2 text-soft">
            <Trans>No open incidents.</Trans>
          </p>
        ) : (
          <ul className="mt-4 space-y-4">
            {incidents.map((incident) => (
              <OpenIncident
                key={incident.id}
                incident={incident}
                draft={draft?.for === incident.id ? draft : undefined}
                maxBody={limits.body}
              />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="new-incident-heading" className="mt-10">
        <h2 id="new-incident-heading" className="font-semibold text-foreground text-xl">
          <Trans>New incident</Trans>
        </h2>
        <div className="mt-4 rounded-lg border border-border-strong bg-surface p-4">
          <NewIncidentForm
            products={products}
            draft={draft?.for === "new" ? draft : undefined}
            publishedId={publishedId}
            limits={limits}
          />
        </div>
      </section>
    </div>
  );
}
