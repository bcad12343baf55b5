// The incidents as an Atom feed (/status/feed.xml, RFC 4287): one entry per incident, its updates newest first.
import { type Incident, INCIDENT_STATUS_LABELS, incidentPath } from "./status";

export const FEED_PATH = "/status/feed.xml";

/** An incident number from the URL, or null for anything else ("12abc", "0", a number too long to be one). */
export function parseIncidentParam(value: string | undefined): number | null {
  return value !== undefined && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" }[c]};`);
}

function updateHtml(update: Incident["updates"][number]): string {
  return `<p><strong>${escapeXml(INCIDENT_STATUS_LABELS[update.status])}</strong> (${escapeXml(update.at)})<br>${escapeXml(update.body).replace(/\n/g, "<br>")}</p>`;
}

function entry(incident: Incident, base: string): string {
  const url = `${base}${incidentPath(incident.id)}`;
  const updated = incident.updates[0]?.at ?? incident.startedAt;
  const affects = incident.products.length > 0 ? `<p>Affects: ${escapeXml(incident.products.join(", "))}</p>` : "";
  return [
    "  <entry>",
    `    <id>${escapeXml(url)}</id>`,
    `    <title>${escapeXml(incident.title)}</title>`,
    `    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
    `    <published>${incident.startedAt}</published>`,
    `    <updated>${updated}</updated>`,
    `    <summary>${escapeXml(`${INCIDENT_STATUS_LABELS[incident.status]}: ${incident.body}`)}</summary>`,
    `    <content type="html">${escapeXml(affects + incident.updates.map(updateHtml).join(""))}</content>`,
    ...incident.products.map((product) => `    <category term="${escapeXml(product)}"/>`),
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
    `  <title>${escapeXml(`${options.brand} status: incidents`)}</title>`,
    `  <subtitle>Incidents and their updates from ${escapeXml(base)}/status</subtitle>`,
    `  <id>${escapeXml(base + FEED_PATH)}</id>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(base + FEED_PATH)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(`${base}/status`)}"/>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${escapeXml(options.brand)}</name></author>`,
    ...incidents.map((incident) => entry(incident, base)),
    "</feed>",
    "",
  ].join("\n");
}
