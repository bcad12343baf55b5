import { emailSchema } from "~/platform/form-input";
import { revokeBuyerSessions } from "~/features/buyer-orders/sign-in-store.server";
import { hashIdentityForLog } from "~/platform/log-identity.server";
import { formatUsd } from "~/features/catalog/pricing";
import { ORDER_STATUSES, type OrderStatus } from "~/features/orders/orders";
import { findOrder, listOrders, listShopNotifications } from "~/features/orders/orders.server";
import type { OrderRecord } from "~/features/orders/orders.server";
import {
  type CliCommand,
  startCommand,
  type CliContext,
  formatTable,
  runWithDatabase,
  auditedCliChange,
} from "./cli-context";

export const ORDERS_USAGE = `Usage:
  npm run cli -- orders list [--status pending|completed|failed|refunded] [--limit 100] [--json]
  npm run cli -- orders show <order id> [--json]
  npm run cli -- orders notifications [--unknown] [--limit 100] [--json]
  npm run cli -- orders sessions revoke --email <address>

Orders written by checkouts (amounts computed by the server) and the shop notifications that changed them.
"notifications --unknown" lists notifications for invoices no order matched: they are kept, never dropped.
"sessions revoke" signs an address out of /orders on every browser (it can sign in again with a new code).`;

/** The flags of this command, besides COMMON_OPTIONS. */
const ORDERS_OPTIONS = {
  status: { type: "string" },
  limit: { type: "string" },
  unknown: { type: "boolean", default: false },
  email: { type: "string" },
} as const;

function productName(products: CliContext["products"], id: number): string {
  return products.find((p) => p.id === id)?.name ?? `#${id}`;
}

/** `orders list|show|notifications`: what buyers started and paid, as recorded by the checkout. */
export const ordersCommand: CliCommand = async (argv, { db, products, out, err }) => {
  const started = startCommand(argv, ORDERS_OPTIONS, ORDERS_USAGE, { out, err });
  if (typeof started === "number") return started;
  const { values, action, rest, fail } = started;
  const limit = values.limit === undefined ? 100 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
    return fail("--limit must be a whole number from 1 to 10000", 2);

  if (action === "list") {
    if (rest.length > 0) return fail(`"orders list" takes no arguments (got ${rest.join(" ")})`, 2);
    const status = values.status;
    if (status !== undefined && !(ORDER_STATUSES as readonly string[]).includes(status)) {
      return fail(`--status must be one of ${ORDER_STATUSES.join(", ")} (got "${status}")`, 2);
    }
    const orders = await listOrders(db, { status: status as OrderStatus | undefined, limit });
    if (values.json) out(JSON.stringify(orders, null, 2));
    else if (orders.length === 0) out(status ? `No ${status} orders.` : "No orders.");
    else {
      out(
        formatTable(
          ["ID", "CREATED", "STATUS", "AMOUNT", "QTY", "PRODUCT", "VARIANT", "PROVIDER", "INVOICE"],
          orders.map((o: OrderRecord) => [
            o.id,
            o.created_at,
            o.status,
            formatUsd(o.amount_cents),
            String(o.quantity),
            productName(products, o.product_id),
            String(o.variant_id),
            o.provider,
            o.provider_invoice_id ?? "—",
          ]),
        ),
      );
    }
    return 0;
  }

  if (action === "show") {
    if (rest.length !== 1) return fail(`"orders show" takes one order id`, 2);
    const order = await findOrder(db, rest[0] ?? "");
    if (!order) return fail(`No order with id ${rest[0]}`);
    const notifications = order.provider_invoice_id
      ? await listShopNotifications(db, { invoiceId: order.provider_invoice_id, limit })
      : [];
    if (values.json) {
      out(JSON.stringify({ ...order, notifications }, null, 2));
      return 0;
    }
    out(
      [
        `Order ${order.id}`,
        `  Status:     ${order.status}${order.completed_at ? ` at ${order.completed_at}` : ""}`,
        `  Created:    ${order.created_at}`,
        `  Product:    ${productName(products, order.product_id)} (variant ${order.variant_id}) × ${order.quantity}`,
        `  Amount:     ${formatUsd(order.amount_cents)}`,
        `  Provider:   ${order.provider}, invoice ${order.provider_invoice_id ?? "— (the shop returned none)"}`,
        `  Notifications: ${notifications.length === 0 ? "none yet" : ""}`,
        ...notifications.map((n) => `    ${n.received_at}  ${n.event}  → ${n.outcome}  (${n.idempotency_key})`),
      ].join("\n"),
    );
    return 0;
  }

  if (action === "notifications") {
    if (rest.length > 0) return fail(`"orders notifications" takes no arguments (got ${rest.join(" ")})`, 2);
    const notifications = await listShopNotifications(db, {
      outcome: values.unknown ? "unknown_invoice" : undefined,
      limit,
    });
    if (values.json) out(JSON.stringify(notifications, null, 2));
    else if (notifications.length === 0)
      out(values.unknown ? "No notifications for unknown invoices." : "No shop notifications.");
    else {
      out(
        formatTable(
          ["RECEIVED", "EVENT", "INVOICE", "OUTCOME", "ORDER", "IDEMPOTENCY KEY"],
          notifications.map((n) => [
            n.received_at,
            n.event,
            n.invoice_id ?? "—",
            n.outcome,
            n.order_id ?? "—",
            n.idempotency_key,
          ]),
        ),
      );
    }
    return 0;
  }

  if (action === "sessions") {
    if (rest[0] !== "revoke" || rest.length !== 1) return fail(`Usage: orders sessions revoke --email <address>`, 2);
    const email = emailSchema.safeParse(values.email ?? "");
    if (!email.success) return fail("--email must be one email address", 2);
    // The address itself stays out of the log, as in the command's own output.
    const ended = await auditedCliChange(
      db,
      (trx) => revokeBuyerSessions(trx, email.data),
      (ended) => ({ action: "buyer-sessions-revoked", target: hashIdentityForLog(email.data), detail: { ended } }),
    );
    out(`${ended} session${ended === 1 ? "" : "s"} ended for ${hashIdentityForLog(email.data)}.`);
    return 0;
  }

  return fail(`Unknown orders command "${action}"\n\n${ORDERS_USAGE}`, 2);
};

/** Entry for the CLI dispatcher (`npm run cli -- orders ...`). */
export function runOrdersCli(argv: string[]): Promise<number> {
  return runWithDatabase(ordersCommand, argv);
}
