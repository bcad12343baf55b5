export const KNOWN_STATUSES = ["operational", "maintenance", "outage"] as const;
export type KnownStatus = (typeof KNOWN_STATUSES)[number];
export type DisplayStatus = KnownStatus | "unknown";

export interface StatusEntry {
  name: string;
  status: DisplayStatus;
  uptime: string;
  updatedAt: string;
}

export interface Incident {
  id: number;
  title: string;
  body: string;
  startedAt: string;
  resolvedAt: string | null;
}

/** Anything the operator typed that is not a known state shows as unknown, never as a crash. */
export function toDisplayStatus(value: string): DisplayStatus {
  return (KNOWN_STATUSES as readonly string[]).includes(value) ? (value as KnownStatus) : "unknown";
}

/** Average uptime of the entries, one decimal (e.g. 99.9, 99.4, 99.8, 99.5, 99.7 → "99.7"). */
export function averageUptime(entries: ReadonlyArray<{ uptime: string }>): string {
  const values = entries.map((e) => Number.parseFloat(e.uptime)).filter((n) => Number.isFinite(n));
  if (values.length === 0) return "0.0";
  // Sum in tenths-of-thousandths to avoid float drift before rounding.
  const sum = values.reduce((acc, n) => acc + Math.round(n * 10_000), 0);
  return (Math.round(sum / values.length / 1000) / 10).toFixed(1);
}

/** What `/status` and `GET /api/status` show: entries, their computed summary and open incidents. */
export interface StatusSnapshot {
  entries: StatusEntry[];
  summary: { products: number; averageUptime: string; activeUsers: string; licenseServers: string };
  incidents: Incident[];
}

export function summarizeStatus(entries: StatusEntry[], stats: { activeUsers: string; licenseServers: string }): StatusSnapshot["summary"] {
  return { products: entries.length, averageUptime: averageUptime(entries), activeUsers: stats.activeUsers, licenseServers: stats.licenseServers };
}

/** Legend order and wording; colours live with the badge component. */
export const STATUS_LEGEND: ReadonlyArray<{ status: DisplayStatus; label: string; description: string }> = [
  { status: "operational", label: "Operational", description: "Working normally" },
  { status: "maintenance", label: "Maintenance", description: "Planned work, may be briefly unavailable" },
  { status: "outage", label: "Outage", description: "Not working, we are on it" },
  { status: "unknown", label: "Unknown", description: "No current information" },
];
