// The incidents as an Atom feed (/status/feed.xml, RFC 4287): one entry per incident, its updates newest first.
import { escapeMarkup } from "~/lib/escape-markup";
import { type Incident, INCIDENT_STATUS_LABELS, incidentPath } from "./status";

export const FEED_PATH = "/status/feed.xml";

/** An update's state and time, then its message as the pages render it (already safe HTML, escaped once below). */
function updateHtml(update: Incident["updates"][number]): string {
  return `<p><strong>${escapeMarkup(INCIDENT_STATUS_LABELS[update.status])}</strong> (${escapeMarkup(update.at)})</p>${update.html}`;
}

function entry(incident: Incident, base: string): string {
  const url = `${base}${incidentPath(incident.id)}`;
  const updated = incident.updates[0]?.at ?? incident.startedAt;
  const affects = incident.products.length > 0 ? `<p>Affects: ${escapeMarkup(incident.products.join(", "))}</p>` : "";
  return [
    "  <entry>",
    `    <id>${escapeMarkup(url)}</id>`,
    `    <title>${escapeMarkup(incident.title)}</title>`,
    `    <link rel="alternate" type="text/html" href="${escapeMarkup(url)}"/>`,
    `    <published>${incident.startedAt}</published>`,
    `    <updated>${updated}</updated>`,
    `    <summary>${escapeMarkup(`${INCIDENT_STATUS_LABELS[incident.status]}: ${incident.body}`)}</summary>`,
    `    <content type="html">${escapeMarkup(affects + incident.updates.map(updateHtml).join(""))}</content>`,
    ...incident.products.map((product) => `    <category term="${escapeMarkup(product)}"/>`),
    "  </entry>",
  ].join("\n");
}

/** The feed document; `now` dates a feed without incidents. */
export function buildIncidentFeed(
  incidents: readonly Incident[],
  options: { publicUrl: string; brand: string; now: Date },
): string {
  const base = options.publicUrl.replace(/\/$/, "");
  const updated =
    incidents
      .map((i) => i.updates[0]?.at ?? i.startedAt)
      .sort()
      .at(-1) ?? options.now.toISOString();
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title>${escapeMarkup(`${options.brand} status: incidents`)}</title>`,
    `  <subtitle>Incidents and their updates from ${escapeMarkup(base)}/status</subtitle>`,
    `  <id>${escapeMarkup(base + FEED_PATH)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeMarkup(base + FEED_PATH)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeMarkup(`${base}/status`)}"/>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${escapeMarkup(options.brand)}</name></author>`,
    ...incidents.map((incident) => entry(incident, base)),
    "</feed>",
    "",
  ].join("\n");
}
