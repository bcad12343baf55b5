import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { data, Link } from "react-router";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { useLocale } from "~/features/i18n/use-locale";
import { IncidentStatusBadge, IncidentTimeline } from "~/features/status/incident-parts";
import { formatDuration, LocalTime } from "~/features/status/local-time";
import { incidentPath, operatorTextLang, parseIncidentParam } from "~/features/status/status";
import { loadIncident } from "~/features/status/status.server";
import { pageMeta } from "~/features/layout/page-meta";
import type { RouteCacheHandle } from "~/lib/route-cache";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/status-incident";

export const handle = { cache: "live" } satisfies RouteCacheHandle;

export async function loader({ params }: Route.LoaderArgs) {
  const id = parseIncidentParam(params.id);
  const incident = id === null ? undefined : await pageDatabaseWork(() => loadIncident(getDb().db, id));
  if (!incident) throw data({ message: "Incident not found" }, { status: 404 });
  return { incident };
}

export const meta: Route.MetaFunction = ({ loaderData, matches, params, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  if (!loaderData)
    return pageMeta(matches[0].loaderData, {
      title: i18n._(msg`Incident not found`),
      description: i18n._(msg`There is no incident with this number.`),
      path: localizedPath(`/status/incidents/${params.id}`, locale),
      noindex: true,
    });
  const { incident } = loaderData;
  const { body } = incident;
  return pageMeta(matches[0].loaderData, {
    title: incident.title,
    description:
      incident.status === "resolved"
        ? i18n._(
            msg({ message: `Resolved incident: ${body}`, comment: "Page description; the text is the operator's" }),
          )
        : i18n._(
            msg({ message: `Ongoing incident: ${body}`, comment: "Page description; the text is the operator's" }),
          ),
    path: localizedPath(incidentPath(incident.id), locale),
  });
};

export default function StatusIncidentRoute({ loaderData }: Route.ComponentProps) {
  const { incident } = loaderData;
  const { id, startedAt, resolvedAt } = incident;
  const { i18n, t } = useLingui();
  const { locale, path } = useLocale();
  const operatorLang = operatorTextLang(locale);
  const lasted = resolvedAt ? formatDuration(i18n, startedAt, resolvedAt) : "";
  const affected = incident.products.join(", ");
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <nav aria-label={t`Breadcrumb`} className="text-sm text-soft">
        <Link
          to={path("/status")}
          className="underline decoration-foreground/30 underline-offset-4 hover:decoration-foreground"
        >
          <Trans comment="The status page's title">System Status</Trans>
        </Link>{" "}
        / <Trans comment="Breadcrumb: an incident's page, by its number">Incident {id}</Trans>
      </nav>
      <h1 lang={operatorLang} dir="auto" className="mt-4 text-3xl font-bold tracking-tight text-foreground">
        {incident.title}
      </h1>
      <div className="mt-3 flex flex-wrap items-center gap-3 text-sm text-soft">
        <IncidentStatusBadge status={incident.status} />
        <span>
          <Trans comment="When an incident started">
            Started <LocalTime iso={startedAt} />
          </Trans>
        </span>
        {resolvedAt ? (
          <span>
            <Trans comment="How long a resolved incident lasted">Lasted {lasted}</Trans>
          </span>
        ) : null}
      </div>
      <p className="mt-3 text-soft">
        {incident.products.length > 0 ? (
          <Trans comment="The products an incident affects, by name">Affects: {affected}</Trans>
        ) : (
          <Trans>Affects: no product named</Trans>
        )}
      </p>
      <section aria-labelledby="incident-updates" className="mt-8">
        <h2 id="incident-updates" className="text-xl font-semibold text-foreground">
          <Trans comment="Heading: the operator's updates on an incident">Updates</Trans>
        </h2>
        <div className="mt-4">
          <IncidentTimeline updates={incident.updates} />
        </div>
      </section>
    </div>
  );
}
