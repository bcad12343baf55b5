// The console's order look-up (issue 35): orders found by the buyer's email, our order number, the shop's invoice id
// or the key delivered, each with the shop notifications that changed it, the mail sent to the buyer (never its text)
// and the buyer's conversations. Every query is answered by an index (migrations 012, 014, 019), in pages.
// Queries only, so the bench can run them outside the app (the page's loader is in orders-page.server.ts).
import { type Kysely, sql } from "kysely";
import type { Database } from "../../../../db/schema";

export const ORDER_SEARCH_PAGE_SIZE = 20;
/** Mail and conversations shown per buyer: the newest. */
export const BUYER_HISTORY_LIMIT = 20;
export const ORDER_QUERY_MAX = 320;

export interface FoundOrder {
  id: string;
  createdAt: string;
  completedAt: string | null;
  productName: string;
  durationLabel: string | null;
  quantity: number;
  amountCents: number;
  status: string;
  shopStatus: string | null;
  provider: string;
  invoiceId: string | null;
  buyerEmail: string | null;
  deliveredKey: string | null;
  notifications: Array<{ receivedAt: string; event: string; outcome: string }>;
}

export interface BuyerMail {
  id: string;
  kind: string;
  /** Null when the subject may carry a secret (a sign-in code). */
  subject: string | null;
  status: string;
  createdAt: string;
  sentAt: string | null;
  lastError: string | null;
}

export interface BuyerConversation {
  id: string;
  category: string;
  status: string;
  createdAt: string;
  lastMessageAt: string;
}

export interface BuyerHistory {
  email: string;
  mail: BuyerMail[];
  conversations: BuyerConversation[];
}

export interface OrderSearchResult {
  orders: FoundOrder[];
  buyers: BuyerHistory[];
  hasMore: boolean;
}

/** Mail whose subject carries a secret, shown by kind alone. */
const SECRET_SUBJECT_KINDS = new Set(["sign-in-code"]);

/** A subject as the console may show it: none for a mail that carries a code, and no long run of digits in any. */
export function safeMailSubject(kind: string, subject: string): string | null {
  if (SECRET_SUBJECT_KINDS.has(kind)) return null;
  return subject.replace(/\d{4,}/g, "…");
}

type Db = Kysely<Database>;

/** What a product and duration are called (the catalogue's names; the bench passes its own). */
export type ProductNames = (
  productId: number,
  variantId: number,
) => { productName: string; durationLabel: string | null };

/**
 * One page of the orders the query names, newest first: by the buyer's address when it has an `@`, else by our order
 * number, the shop's invoice id or the key delivered (each an equality on its own index).
 */
export async function searchOrders(
  db: Db,
  rawQuery: string,
  page: number,
  nameOf: ProductNames = (productId) => ({ productName: `#${productId}`, durationLabel: null }),
): Promise<OrderSearchResult> {
  const query = rawQuery.trim();
  if (query.length === 0 || query.length > ORDER_QUERY_MAX) return { orders: [], buyers: [], hasMore: false };
  let select = db.selectFrom("orders").selectAll();
  select = query.includes("@")
    ? select.where("buyer_email", "=", query.toLowerCase())
    : select.where((eb) =>
        eb.or([eb("id", "=", query), eb("provider_invoice_id", "=", query), eb("delivered_key", "=", query)]),
      );
  const rows = await select
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(ORDER_SEARCH_PAGE_SIZE + 1)
    .offset((page - 1) * ORDER_SEARCH_PAGE_SIZE)
    .execute();
  const pageRows = rows.slice(0, ORDER_SEARCH_PAGE_SIZE);
  const invoices = [...new Set(pageRows.flatMap((r) => (r.provider_invoice_id ? [r.provider_invoice_id] : [])))];
  const notifications =
    invoices.length === 0
      ? []
      : await db
          .selectFrom("shop_notifications")
          .select(["invoice_id", "received_at", "event", "outcome"])
          .where("invoice_id", "in", invoices)
          .orderBy("received_at")
          .limit(invoices.length * 50)
          .execute();
  const orders = pageRows.map((r): FoundOrder => {
    return {
      id: r.id,
      createdAt: r.created_at,
      completedAt: r.completed_at,
      ...nameOf(r.product_id, r.variant_id),
      quantity: Number(r.quantity),
      amountCents: Number(r.amount_cents),
      status: r.status,
      shopStatus: r.shop_status,
      provider: r.provider,
      invoiceId: r.provider_invoice_id,
      buyerEmail: r.buyer_email,
      deliveredKey: r.delivered_key,
      notifications: notifications
        .filter((n) => r.provider_invoice_id !== null && n.invoice_id === r.provider_invoice_id)
        .map((n) => ({ receivedAt: n.received_at, event: n.event, outcome: n.outcome })),
    };
  });
  const emails = [
    ...new Set(
      query.includes("@")
        ? [query.toLowerCase()]
        : orders.flatMap((o) => (o.buyerEmail ? [o.buyerEmail.toLowerCase()] : [])),
    ),
  ].slice(0, 5);
  const buyers = await Promise.all(emails.map((email) => buyerHistory(db, email)));
  return { orders, buyers, hasMore: rows.length > ORDER_SEARCH_PAGE_SIZE };
}

/** The newest mail sent to an address (kind, subject and state; never the text) and its conversations. */
export async function buyerHistory(db: Db, email: string): Promise<BuyerHistory> {
  const [mail, conversations] = await Promise.all([
    db
      .selectFrom("mail_outbox")
      .select(["id", "kind", "subject", "status", "created_at", "sent_at", "last_error"])
      .where(sql<string>`lower(to_address)`, "=", email)
      .orderBy("created_at", "desc")
      .limit(BUYER_HISTORY_LIMIT)
      .execute(),
    db
      .selectFrom("support_conversations")
      .select(["id", "category", "status", "created_at", "last_message_at"])
      .where("visitor_email", "=", email)
      .orderBy("created_at", "desc")
      .limit(BUYER_HISTORY_LIMIT)
      .execute(),
  ]);
  return {
    email,
    mail: mail.map((m) => ({
      id: m.id,
      kind: m.kind,
      subject: safeMailSubject(m.kind, m.subject),
      status: m.status,
      createdAt: m.created_at,
      sentAt: m.sent_at,
      lastError: m.last_error,
    })),
    conversations: conversations.map((c) => ({
      id: c.id,
      category: c.category,
      status: c.status,
      createdAt: c.created_at,
      lastMessageAt: c.last_message_at,
    })),
  };
}
