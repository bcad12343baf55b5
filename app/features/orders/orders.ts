import { z } from "zod";

export const ORDER_STATUSES = ["pending", "completed", "failed", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** What GET /api/orders/:id answers: the status (and the shop's own word for it, once read), nothing about the buyer. */
export const orderStatusSchema = z.object({
  id: z.string(),
  status: z.enum(ORDER_STATUSES),
  shopStatus: z.string().max(64).optional(),
});
export type OrderStatusView = z.infer<typeof orderStatusSchema>;

export const orderIdSchema = z.uuid();

/** Shop notification events by what they mean for an order; anything else is recorded and ignored. */
export type InvoiceOutcome = "paid" | "refunded" | "failed" | "other";

/** The shop's view of one invoice: what it means for the order, and the status as the shop spelled it. */
export type InvoiceLookupResult = { outcome: InvoiceOutcome; shopStatus?: string } | { error: string };

export function classifyInvoiceEvent(event: string): InvoiceOutcome {
  const name = event.toUpperCase();
  if (/_(PAID|PROCESSED|COMPLETED)$/.test(name)) return "paid";
  if (/_REFUNDED$/.test(name)) return "refunded";
  if (/_(CANCELLED|CANCELED|EXPIRED|FAILED)$/.test(name)) return "failed";
  return "other";
}

/** Which status change an outcome makes; a completed order is never pushed back to failed. */
export function nextOrderStatus(current: OrderStatus, outcome: InvoiceOutcome): OrderStatus | undefined {
  if (outcome === "paid" && (current === "pending" || current === "failed")) return "completed";
  if (outcome === "refunded" && current === "completed") return "refunded";
  if (outcome === "failed" && current === "pending") return "failed";
  return undefined;
}
