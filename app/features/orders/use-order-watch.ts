import { useEffect, useState } from "react";
import type { OrderStatus } from "./orders";

// orders.ts holds zod schemas: they load with the first answer to read, after the page has painted.
const loadOrders = () => import("./orders");

/** Every 2 s, every 10 s after a minute: at most 30 requests a minute, half the order-status rate limit. */
export const ORDER_WATCH_TIMING = { fastMs: 2_000, slowMs: 10_000, slowAfterMs: 60_000 } as const;
const MAX_CONSECUTIVE_ERRORS = 3;

export type OrderWatch =
  | { state: "checking" }
  | { state: "found"; status: OrderStatus; shopStatus?: string }
  | { state: "not-found" }
  | { state: "unreachable" };

/** How long to wait before the next look: the shop's pace while the watch is young, slower later, longer when told (429 Retry-After). */
export function nextOrderCheckDelay(watchedForMs: number, retryAfterSeconds?: number): number {
  const regular =
    watchedForMs >= ORDER_WATCH_TIMING.slowAfterMs ? ORDER_WATCH_TIMING.slowMs : ORDER_WATCH_TIMING.fastMs;
  if (retryAfterSeconds === undefined || !Number.isFinite(retryAfterSeconds) || retryAfterSeconds <= 0) return regular;
  return Math.max(regular, Math.min(retryAfterSeconds, 300) * 1000);
}

const isSettled = (status: OrderStatus) => status !== "pending";

/**
 * Watches GET /api/orders/{id} while `active`, until the order is settled (completed, failed, refunded), unknown or
 * unreachable. Paused while the tab is hidden; a hidden tab is checked again as soon as it is shown.
 */
export function useOrderWatch(orderId: string | null, active = true): OrderWatch {
  const [watch, setWatch] = useState<OrderWatch>({ state: "checking" });

  useEffect(() => {
    if (!orderId || !active) return;
    setWatch({ state: "checking" });
    const startedAt = Date.now();
    let timer: number | undefined;
    let stopped = false;
    let inFlight = false;
    let errors = 0;

    const schedule = (delayMs: number) => {
      window.clearTimeout(timer);
      if (stopped || document.visibilityState === "hidden") return;
      timer = window.setTimeout(check, delayMs);
    };

    async function check() {
      if (stopped || inFlight || document.visibilityState === "hidden") return;
      inFlight = true;
      let retryAfter: number | undefined;
      try {
        const response = await fetch(`/api/orders/${encodeURIComponent(orderId ?? "")}`, {
          headers: { Accept: "application/json" },
          cache: "no-store",
        });
        if (stopped) return;
        if (response.status === 404 || response.status === 400) {
          stopped = true;
          setWatch({ state: "not-found" });
          return;
        }
        if (response.status === 429) {
          retryAfter = Number(response.headers.get("Retry-After") ?? undefined);
        } else {
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const [{ orderStatusSchema }, body] = await Promise.all([loadOrders(), response.json()]);
          if (stopped) return;
          const order = orderStatusSchema.parse(body);
          errors = 0;
          setWatch(
            order.shopStatus
              ? { state: "found", status: order.status, shopStatus: order.shopStatus }
              : { state: "found", status: order.status },
          );
          if (isSettled(order.status)) {
            stopped = true;
            return;
          }
        }
      } catch {
        if (stopped) return;
        errors += 1;
        if (errors >= MAX_CONSECUTIVE_ERRORS) {
          stopped = true;
          setWatch({ state: "unreachable" });
          return;
        }
      } finally {
        inFlight = false;
      }
      schedule(nextOrderCheckDelay(Date.now() - startedAt, retryAfter));
    }

    const onVisibilityChange = () => {
      if (document.visibilityState === "visible") void check();
      else window.clearTimeout(timer);
    };
    document.addEventListener("visibilitychange", onVisibilityChange);
    void check();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibilityChange);
    };
  }, [orderId, active]);

  return watch;
}
