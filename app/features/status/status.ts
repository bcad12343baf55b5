import { type AnyLocale, DEFAULT_LOCALE, localeInfo } from "~/features/i18n/locales";

export const KNOWN_STATUSES = ["operational", "maintenance", "outage"] as const;
export type KnownStatus = (typeof KNOWN_STATUSES)[number];
export type DisplayStatus = KnownStatus | "unknown";

export interface StatusEntry {
  name: string;
  status: DisplayStatus;
  /** Uptime over the last 90 days, computed from the recorded changes ("99.90"); null when nothing was measured. */
  uptime: string | null;
  updatedAt: string;
  /** One letter per UTC day, oldest first (see DAY_CODES): the day's worst status. */
  days: string;
  /** Only the days with something to add, by index into `days`: that day's uptime when below 100, its incidents. */
  notes: Record<string, DayNote>;
}

export interface DayNote {
  uptime?: string;
  incidents?: number[];
}

/** How `StatusEntry.days` spells each day's worst status. */
export const DAY_CODES = { operational: "o", maintenance: "m", outage: "x", none: "-" } as const;
export type DayWorst = keyof typeof DAY_CODES;
export const DAY_BY_CODE: Record<string, DayWorst> = { o: "operational", m: "maintenance", x: "outage", "-": "none" };

export const INCIDENT_STATUSES = ["investigating", "identified", "monitoring", "resolved"] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

export const INCIDENT_STATUS_LABELS: Record<IncidentStatus, string> = {
  investigating: "Investigating",
  identified: "Identified",
  monitoring: "Monitoring",
  resolved: "Resolved",
};

export interface IncidentUpdate {
  status: IncidentStatus;
  /** As the operator wrote it: Markdown. */
  body: string;
  /** `body` rendered on the server (incident-markdown.server.ts): what every page and the feed show. */
  html: string;
  at: string;
}

export interface Incident {
  id: number;
  title: string;
  /** The newest update's text, as written (Markdown). */
  body: string;
  /** The newest update's text as safe HTML. */
  html: string;
  status: IncidentStatus;
  /** Status names of the products it affects. */
  products: string[];
  startedAt: string;
  resolvedAt: string | null;
  /** Newest first. */
  updates: IncidentUpdate[];
}

/** A resolved incident as the page lists it (its updates are on its own page). */
export type IncidentSummary = Omit<Incident, "updates" | "body" | "html">;

export function toIncidentStatus(value: string): IncidentStatus {
  return (INCIDENT_STATUSES as readonly string[]).includes(value) ? (value as IncidentStatus) : "investigating";
}

/** An incident number from its URL, or null for anything else ("12abc", "0", "007", a number too long to be one). */
export function parseIncidentParam(value: string | undefined): number | null {
  return value !== undefined && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}

export function incidentPath(id: number): string {
  return `/status/incidents/${id}`;
}

/** Anything the operator typed that is not a known state shows as unknown, never as a crash. */
export function toDisplayStatus(value: string): DisplayStatus {
  return (KNOWN_STATUSES as readonly string[]).includes(value) ? (value as KnownStatus) : "unknown";
}

/** What `/status` and `GET /api/status` show: entries with their history, the computed summary and incidents. */
export interface StatusSnapshot {
  entries: StatusEntry[];
  summary: { products: number; averageUptime: string | null; activeUsers: string; licenseServers: string };
  /** Open incidents, newest first. */
  incidents: Incident[];
  /** Incidents resolved in the last 14 days, newest first. */
  recentIncidents: IncidentSummary[];
  /** The UTC date of each entry's first day. */
  historyStart: string;
  /** Titles of the incidents the days' notes name. */
  incidentTitles: Record<string, string>;
}

/**
 * The `lang` of what operators write (incident titles and updates, in the shop's own language): none on a page in
 * that language, where it would only repeat `<html lang>`; elsewhere it tells screen readers which voice to use.
 */
export function operatorTextLang(pageLocale: AnyLocale): string | undefined {
  return pageLocale === DEFAULT_LOCALE ? undefined : localeInfo(DEFAULT_LOCALE).tag;
}
