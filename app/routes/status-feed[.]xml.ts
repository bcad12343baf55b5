import { getContent } from "~/features/content/content.server";
import { buildIncidentFeed } from "~/features/status/status-feed";
import { listLatestIncidents } from "~/features/status/status.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";

/** `/status/feed.xml`: the 50 newest incidents with their updates, as Atom. */
export async function loader() {
  const incidents = await pageDatabaseWork(() => listLatestIncidents(getDb().db));
  const body = buildIncidentFeed(incidents, {
    publicUrl: getEnv().PUBLIC_URL,
    brand: getContent().site.brand,
    now: new Date(),
  });
  return new Response(body, {
    headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "public, max-age=60" },
  });
}
