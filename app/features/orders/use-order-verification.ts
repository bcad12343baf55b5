import { useEffect, useState } from "react";
import { toast } from "~/features/layout/toasts";
import { orderStatusSchema } from "./orders";

export const ORDER_POLL_INTERVAL_MS = 2_000;
/** After this long without a payment confirmation the page says `Pending` (and keeps checking, more slowly). */
export const ORDER_PENDING_AFTER_MS = 60_000;
const SLOW_POLL_INTERVAL_MS = 10_000;
const MAX_CONSECUTIVE_ERRORS = 3;

export type Verification =
  | { state: "verifying" }
  | { state: "completed" }
  | { state: "pending" }
  | { state: "not-found" }
  | { state: "failed" }
  | { state: "unverified" };

/** Exact texts of the failure toast (issue 3). */
export const VERIFY_FAILED_TOAST = { title: "Error", description: "Failed to verify your order. Please contact support." } as const;

function showVerifyFailedToast() {
  toast.error(VERIFY_FAILED_TOAST.title, { description: VERIFY_FAILED_TOAST.description, id: "order-verification" });
}

/**
 * Polls GET /api/orders/{id} until the shop's notification has marked the order completed. Without an order id
 * (a shop redirect that carries none) the success view shows as before.
 */
export function useOrderVerification(orderId: string | null): Verification {
  const [verification, setVerification] = useState<Verification>({ state: "verifying" });

  useEffect(() => {
    if (!orderId) {
      setVerification({ state: "completed" });
      return;
    }
    const startedAt = Date.now();
    let timer: number | undefined;
    let stopped = false;
    let errors = 0;
    let pendingShown = false;

    const finish = (next: Verification, failed = false) => {
      stopped = true;
      setVerification(next);
      if (failed) showVerifyFailedToast();
    };

    const poll = async () => {
      try {
        const response = await fetch(`/api/orders/${encodeURIComponent(orderId)}`, { headers: { Accept: "application/json" }, cache: "no-store" });
        if (stopped) return;
        if (response.status === 404 || response.status === 400) return finish({ state: "not-found" }, true);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const order = orderStatusSchema.parse(await response.json());
        errors = 0;
        if (order.status === "completed") return finish({ state: "completed" });
        if (order.status === "failed" || order.status === "refunded") return finish({ state: "failed" }, true);
      } catch {
        if (stopped) return;
        errors += 1;
        if (errors >= MAX_CONSECUTIVE_ERRORS) return finish({ state: "unverified" }, true);
      }
      const waited = Date.now() - startedAt;
      if (waited >= ORDER_PENDING_AFTER_MS && !pendingShown) {
        pendingShown = true;
        setVerification({ state: "pending" });
      }
      timer = window.setTimeout(poll, pendingShown ? SLOW_POLL_INTERVAL_MS : ORDER_POLL_INTERVAL_MS);
    };

    void poll();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [orderId]);

  return verification;
}
