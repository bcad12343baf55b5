import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router";
import { useLocale } from "~/features/i18n/use-locale";
import { formatDuration, LocalTime } from "./local-time";
import { type Incident, type IncidentStatus, type IncidentSummary, incidentPath, operatorTextLang } from "./status";
import { INCIDENT_STATUS_NAMES } from "./status-messages";

const STATUS_STYLES: Record<IncidentStatus, string> = {
  investigating: "bg-danger/15 text-danger-soft ring-danger/40",
  identified: "bg-warning/15 text-warning-soft ring-warning/40",
  monitoring: "bg-accent/15 text-accent-soft ring-accent/40",
  resolved: "bg-success/15 text-success-soft ring-success/40",
};

export function IncidentStatusBadge({ status }: { status: IncidentStatus }) {
  const { i18n } = useLingui();
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${STATUS_STYLES[status]}`}>
      {i18n._(INCIDENT_STATUS_NAMES[status])}
    </span>
  );
}

function Affects({ products }: { products: string[] }) {
  const affected = products.join(", ");
  return products.length > 0 ? (
    <p className="mt-1 text-sm text-soft">
      <Trans comment="The products an incident affects, by name">Affects: {affected}</Trans>
    </p>
  ) : null;
}

/** How the message's HTML looks: paragraphs apart, lists marked, links and code told from the text. */
const MESSAGE_STYLES =
  "space-y-2 break-words text-foreground [&_a]:text-link [&_a]:underline [&_code]:rounded [&_code]:bg-foreground/10 [&_code]:px-1 [&_code]:font-mono [&_code]:text-[0.9em] [&_ol]:list-decimal [&_ol]:ps-6 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-foreground/10 [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_ul]:list-disc [&_ul]:ps-6";

/**
 * An incident's message as /status, its incident page and the console's preview show it: the operator's Markdown,
 * rendered on the server (incident-markdown.server.ts), marked as in the shop's default language.
 */
export function IncidentText({ html, className }: { html: string; className: string }) {
  const operatorLang = operatorTextLang(useLocale().locale);
  return (
    <div
      lang={operatorLang}
      dir="auto"
      className={`${className} ${MESSAGE_STYLES}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and allow-listed on the server (incident-markdown.server.ts).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** An incident's updates, newest first, each with its status and time; the operator's text is marked as theirs. */
export function IncidentTimeline({ updates }: { updates: Incident["updates"] }) {
  const { i18n } = useLingui();
  return (
    <ol className="space-y-4 border-s border-foreground/15 ps-4">
      {updates.map((update) => (
        <li key={`${update.at}-${update.status}`}>
          <p className="text-sm font-semibold text-foreground">
            {i18n._(INCIDENT_STATUS_NAMES[update.status])}{" "}
            <span className="font-normal text-soft">
              · <LocalTime iso={update.at} />
            </span>
          </p>
          <IncidentText html={update.html} className="mt-1" />
        </li>
      ))}
    </ol>
  );
}

/** Open incidents, at the top of /status: each with its products, its latest update and a link to its page. */
export function ActiveIncidents({ incidents }: { incidents: Incident[] }) {
  const { locale, path } = useLocale();
  if (incidents.length === 0) return null;
  const operatorLang = operatorTextLang(locale);
  return (
    <section
      aria-labelledby="status-incidents"
      className="mt-10 rounded-2xl border border-danger/40 bg-danger/10 p-5 sm:p-6"
    >
      <h2 id="status-incidents" className="text-lg font-semibold text-foreground">
        <Trans>Active incidents</Trans>
      </h2>
      <ul className="mt-4 space-y-6">
        {incidents.map((incident) => (
          <li key={incident.id}>
            <h3 className="flex flex-wrap items-center gap-2 font-semibold text-danger-soft">
              <Link
                to={path(incidentPath(incident.id))}
                lang={operatorLang}
                dir="auto"
                className="underline decoration-danger-soft/50 underline-offset-4 hover:decoration-danger-soft"
              >
                {incident.title}
              </Link>
              <IncidentStatusBadge status={incident.status} />
            </h3>
            <Affects products={incident.products} />
            <IncidentText html={incident.html} className="mt-2" />
            <p className="mt-1 text-xs text-soft">
              <Trans comment="When an open incident started">
                Since <LocalTime iso={incident.startedAt} />
              </Trans>
              {incident.updates.length > 1 && incident.updates[0] ? (
                <>
                  {" "}
                  <Trans comment="After an open incident's start: when it was last updated">
                    · updated <LocalTime iso={incident.updates[0].at} />
                  </Trans>
                </>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Incidents resolved in the last 14 days, below the bars. */
export function RecentIncidents({ incidents }: { incidents: IncidentSummary[] }) {
  const { i18n } = useLingui();
  const { locale, path } = useLocale();
  const operatorLang = operatorTextLang(locale);
  return (
    <section aria-labelledby="status-past-incidents" className="mt-10">
      <h2 id="status-past-incidents" className="text-xl font-semibold text-foreground">
        <Trans>Past incidents (14 days)</Trans>
      </h2>
      {incidents.length === 0 ? (
        <p className="mt-4 rounded-2xl border border-foreground/10 bg-surface/60 px-5 py-4 text-soft">
          <Trans>No incidents in the last 14 days.</Trans>
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-foreground/10 rounded-2xl border border-foreground/10 bg-surface/60">
          {incidents.map((incident) => {
            const { resolvedAt } = incident;
            const lasted = resolvedAt ? formatDuration(i18n, incident.startedAt, resolvedAt) : "";
            return (
              <li key={incident.id} className="px-5 py-4">
                <Link
                  to={path(incidentPath(incident.id))}
                  lang={operatorLang}
                  dir="auto"
                  className="font-medium text-foreground underline decoration-foreground/30 underline-offset-4 hover:decoration-foreground"
                >
                  {incident.title}
                </Link>
                <Affects products={incident.products} />
                {resolvedAt ? (
                  <p className="mt-1 text-xs text-soft">
                    <Trans comment="A past incident: when it was resolved and how long it lasted">
                      Resolved <LocalTime iso={resolvedAt} /> · lasted {lasted}
                    </Trans>
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
