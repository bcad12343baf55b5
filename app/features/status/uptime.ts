// Uptime computed from recorded status changes (docs/status.md): days are UTC days, maintenance is not downtime, and
// time before tracking began (or under a status nobody recognises) is "no data", never "up".
import type { DisplayStatus } from "./status";

export const HISTORY_DAYS = 90;
const DAY_MS = 86_400_000;

export interface StatusChange {
  /** Milliseconds since the epoch. */
  at: number;
  status: DisplayStatus;
}

/** One UTC day of one product: how long it spent in each state, and the worst state it was in. */
export interface DayRecord {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  upMs: number;
  downMs: number;
  maintenanceMs: number;
  /** The day's colour: outage beats maintenance beats operational; "none" when nothing was measured. */
  worst: "operational" | "maintenance" | "outage" | "none";
}

const RANK = { none: 0, operational: 1, maintenance: 2, outage: 3 } as const;

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * The last `days` UTC days up to `now` (today is the last, counted up to `now`) from one product's changes, oldest
 * first. `changes` may hold the last change before the window: it says the state the window starts in.
 */
export function dailyRecords(changes: readonly StatusChange[], now: number, days = HISTORY_DAYS): DayRecord[] {
  const sorted = [...changes].sort((a, b) => a.at - b.at);
  const firstDay = startOfUtcDay(now) - (days - 1) * DAY_MS;
  const records: DayRecord[] = [];
  for (let day = 0; day < days; day++) {
    const start = firstDay + day * DAY_MS;
    records.push({
      date: new Date(start).toISOString().slice(0, 10),
      upMs: 0,
      downMs: 0,
      maintenanceMs: 0,
      worst: "none",
    });
  }
  sorted.forEach((change, i) => {
    const from = Math.max(change.at, firstDay);
    const to = Math.min(sorted[i + 1]?.at ?? now, now);
    if (to <= from || change.status === "unknown") return;
    // Spread the span over the days it covers.
    for (let start = startOfUtcDay(from); start < to; start += DAY_MS) {
      const record = records[(start - firstDay) / DAY_MS];
      if (!record) continue;
      const spent = Math.min(to, start + DAY_MS) - Math.max(from, start);
      if (spent <= 0) continue;
      if (change.status === "operational") record.upMs += spent;
      else if (change.status === "outage") record.downMs += spent;
      else record.maintenanceMs += spent;
      if (RANK[change.status] > RANK[record.worst]) record.worst = change.status;
    }
  });
  return records;
}

/** The share of measured time that was up (maintenance and no data left out), or null when nothing was measured. */
export function uptimeFraction(records: ReadonlyArray<Pick<DayRecord, "upMs" | "downMs">>): number | null {
  let up = 0;
  let down = 0;
  for (const record of records) {
    up += record.upMs;
    down += record.downMs;
  }
  return up + down === 0 ? null : up / (up + down);
}

/** The mean of the products' uptimes that have data, or null when none has. */
export function averageFraction(fractions: ReadonlyArray<number | null>): number | null {
  const known = fractions.filter((f): f is number => f !== null);
  return known.length === 0 ? null : known.reduce((sum, f) => sum + f, 0) / known.length;
}

/**
 * A percentage with two decimals, rounded down so that any downtime shows below 100 ("99.99", never "100.00" for a
 * day with a minute down); null is "no data".
 */
export function formatUptime(fraction: number | null): string | null {
  if (fraction === null) return null;
  // Work in hundredths of a percent, nudged so that float noise (0.999 → 99.89999…) does not round a step down.
  const hundredths = Math.floor(fraction * 10_000 + 1e-7);
  return (hundredths / 100).toFixed(2);
}
