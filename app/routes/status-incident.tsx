import { data, Link } from "react-router";
import { IncidentStatusBadge, IncidentTimeline } from "~/features/status/incident-parts";
import { formatDuration, LocalTime } from "~/features/status/local-time";
import { incidentPath, parseIncidentParam } from "~/features/status/status";
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

export const meta: Route.MetaFunction = ({ loaderData, matches, params }) => {
  if (!loaderData)
    return pageMeta(matches[0].loaderData, {
      title: "Incident not found",
      description: "There is no incident with this number.",
      path: `/status/incidents/${params.id}`,
      noindex: true,
    });
  const { incident } = loaderData;
  return pageMeta(matches[0].loaderData, {
    title: incident.title,
    description: `${incident.status === "resolved" ? "Resolved" : "Ongoing"} incident: ${incident.body}`,
    path: incidentPath(incident.id),
  });
};

export default function StatusIncidentRoute({ loaderData }: Route.ComponentProps) {
  const { incident } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-300">
        <Link to="/status" className="underline decoration-white/30 underline-offset-4 hover:decoration-white">
          System Status
        </Link>{" "}
        / Incident {incident.id}
      </nav>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-white">{incident.title}</h1>
      <div className="mt-3 flex flex-wrap items-center gap-3 text-sm text-slate-300">
        <IncidentStatusBadge status={incident.status} />
        <span>
          Started <LocalTime iso={incident.startedAt} />
        </span>
        {incident.resolvedAt ? <span>Lasted {formatDuration(incident.startedAt, incident.resolvedAt)}</span> : null}
      </div>
      <p className="mt-3 text-slate-300">
        Affects: {incident.products.length > 0 ? incident.products.join(", ") : "no product named"}
      </p>
      <section aria-labelledby="incident-updates" className="mt-8">
        <h2 id="incident-updates" className="text-xl font-semibold text-white">
          Updates
        </h2>
        <div className="mt-4">
          <IncidentTimeline updates={incident.updates} />
        </div>
      </section>
    </div>
  );
}
