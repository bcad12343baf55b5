// The dashboard's numbers (issue 34), read from the shop's own data for a period and the one before it. A number
// that cannot be known is null (the page says so), never a 0 by default.
import { type Kysely, sql } from "kysely";
import { getEnv } from "~/platform/env.server";
import type { Database } from "../../../../db/schema";

export const DASHBOARD_PERIODS = { "24h": 1, "7d": 7, "30d": 30 } as const;
export type DashboardPeriod = keyof typeof DASHBOARD_PERIODS;

export function isDashboardPeriod(value: unknown): value is DashboardPeriod {
  return typeof value === "string" && value in DASHBOARD_PERIODS;
}

export interface PeriodFigures {
  paidOrders: number;
  /** Cents per currency (the checkout records amounts in the shop's currency, USD). */
  revenue: Array<{ currency: string; cents: number }>;
  supportRequests: number;
  /** null: no conversation in the period had a team reply yet. */
  medianFirstReplyMs: number | null;
}

export interface DashboardDay {
  day: string;
  orders: number;
  requests: number;
}

export interface Dashboard {
  period: DashboardPeriod;
  from: string;
  to: string;
  current: PeriodFigures;
  previous: PeriodFigures;
  waiting: { count: number; oldestSince: string | null };
  failingDeliveries: { supportRequests: number; mail: number };
  status: {
    affected: Array<{ name: string; status: string }>;
    total: number;
    openIncident: { id: number; title: string; status: string } | null;
  };
  /** null: the catalogue comes from content files, nothing to sync. */
  catalogueSyncedAt: string | null | "never";
  days: DashboardDay[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

async function periodFigures(db: Kysely<Database>, from: string, to: string): Promise<PeriodFigures> {
  const [paid, requests, replies] = await Promise.all([
    db
      .selectFrom("orders")
      .select((eb) => [
        eb.fn.countAll<number | string>().as("n"),
        eb.fn.sum<number | string | null>("amount_cents").as("cents"),
      ])
      .where("status", "=", "completed")
      .where("completed_at", ">=", from)
      .where("completed_at", "<", to)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("support_requests")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("created_at", ">=", from)
      .where("created_at", "<", to)
      .executeTakeFirstOrThrow(),
    // Each conversation's first team reply, kept on it by the conversation store: one index range, no message read.
    db
      .selectFrom("support_conversations")
      .select(["created_at", "first_team_reply_at as first_reply_at"])
      .where("created_at", ">=", from)
      .where("created_at", "<", to)
      .execute(),
  ]);
  const waits = replies
    .filter((r) => r.first_reply_at !== null)
    .map((r) => Date.parse(String(r.first_reply_at)) - Date.parse(r.created_at))
    .filter((ms) => Number.isFinite(ms) && ms >= 0)
    .sort((a, b) => a - b);
  const middle = Math.floor(waits.length / 2);
  const median =
    waits.length === 0
      ? null
      : waits.length % 2 === 1
        ? (waits[middle] ?? 0)
        : ((waits[middle - 1] ?? 0) + (waits[middle] ?? 0)) / 2;
  const paidOrders = Number(paid.n);
  return {
    paidOrders,
    revenue: paidOrders > 0 ? [{ currency: "USD", cents: Number(paid.cents ?? 0) }] : [],
    supportRequests: Number(requests.n),
    medianFirstReplyMs: median,
  };
}

export async function readDashboard(
  db: Kysely<Database>,
  period: DashboardPeriod,
  now = new Date(),
): Promise<Dashboard> {
  const length = DASHBOARD_PERIODS[period] * DAY_MS;
  const to = now.toISOString();
  const from = new Date(now.getTime() - length).toISOString();
  const before = new Date(now.getTime() - 2 * length).toISOString();
  const chartFrom = new Date(now.getTime() - Math.max(length, 7 * DAY_MS)).toISOString();
  const day = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;
  const [
    current,
    previous,
    waiting,
    failingRequests,
    failingMail,
    statuses,
    incident,
    snapshot,
    orderDays,
    requestDays,
  ] = await Promise.all([
    periodFigures(db, from, to),
    periodFigures(db, before, from),
    // Waiting for the team: open conversations whose turn it is ours, kept on each by the conversation store.
    db
      .selectFrom("support_conversations")
      .select((eb) => [eb.fn.countAll<number | string>().as("n"), eb.fn.min("waiting_since").as("oldest")])
      .where("status", "=", "open")
      .where("waiting_on", "=", "us")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("support_requests")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where((eb) =>
        eb.or([
          eb("delivery_status", "=", "failed"),
          eb.and([eb("delivery_status", "=", "pending"), eb("first_failed_at", "is not", null)]),
        ]),
      )
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("mail_outbox")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where((eb) =>
        eb.or([
          eb("status", "=", "failed"),
          eb.and([eb("status", "=", "pending"), eb("first_failed_at", "is not", null)]),
        ]),
      )
      .executeTakeFirstOrThrow(),
    db.selectFrom("status_entries").select(["name", "status"]).orderBy("sort_order").execute(),
    db
      .selectFrom("incidents")
      .select(["id", "title", "status"])
      .where("resolved_at", "is", null)
      .orderBy("started_at", "desc")
      .limit(1)
      .executeTakeFirst(),
    getEnv().CATALOG_SOURCE === "sellauth"
      ? db.selectFrom("catalogue_snapshots").select("synced_at").orderBy("version", "desc").limit(1).executeTakeFirst()
      : Promise.resolve(null),
    db
      .selectFrom("orders")
      .select((eb) => [day("completed_at").as("day"), eb.fn.countAll<number | string>().as("n")])
      .where("status", "=", "completed")
      .where("completed_at", ">=", chartFrom)
      .groupBy(day("completed_at"))
      .execute(),
    db
      .selectFrom("support_requests")
      .select((eb) => [day("created_at").as("day"), eb.fn.countAll<number | string>().as("n")])
      .where("created_at", ">=", chartFrom)
      .groupBy(day("created_at"))
      .execute(),
  ]);
  const days: DashboardDay[] = [];
  const ordersByDay = new Map(orderDays.map((r) => [r.day, Number(r.n)]));
  const requestsByDay = new Map(requestDays.map((r) => [r.day, Number(r.n)]));
  for (let t = Date.parse(chartFrom.slice(0, 10)); t <= now.getTime(); t += DAY_MS) {
    const key = new Date(t).toISOString().slice(0, 10);
    days.push({ day: key, orders: ordersByDay.get(key) ?? 0, requests: requestsByDay.get(key) ?? 0 });
  }
  const waitingCount = Number(waiting.n);
  return {
    period,
    from,
    to,
    current,
    previous,
    waiting: { count: waitingCount, oldestSince: waitingCount > 0 ? (waiting.oldest as string | null) : null },
    failingDeliveries: { supportRequests: Number(failingRequests.n), mail: Number(failingMail.n) },
    status: {
      affected: statuses.filter((s) => s.status !== "operational"),
      total: statuses.length,
      openIncident: incident ? { id: Number(incident.id), title: incident.title, status: incident.status } : null,
    },
    catalogueSyncedAt: snapshot === null ? null : (snapshot?.synced_at ?? "never"),
    days: days.slice(-Math.max(DASHBOARD_PERIODS[period], 7)),
  };
}
