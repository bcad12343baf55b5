import { useLingui } from "@lingui/react/macro";
import { useEffect } from "react";
import { toast } from "~/features/layout/toasts";
import { useOrderWatch } from "./use-order-watch";

export type Verification =
  | { state: "verifying" }
  | { state: "completed" }
  | { state: "waiting"; confirming: boolean }
  | { state: "failed" }
  | { state: "refunded" }
  | { state: "not-found" }
  | { state: "unverified" };

/**
 * What the success page shows for an order, watched until it settles. Without an order id (a shop redirect that
 * carries none) there is nothing to check, and the plain thank-you view shows.
 */
export function useOrderVerification(orderId: string | null): Verification {
  const { t } = useLingui();
  const watch = useOrderWatch(orderId);
  const verification = toVerification(orderId, watch);
  const unverified = verification.state === "unverified";
  useEffect(() => {
    // Only a check that could not be made is an error; an answer (even "not found") is shown on the page itself.
    // The text, word for word in English, is pinned by tests/e2e/checkout.spec.ts.
    if (unverified)
      toast.error(t({ message: "Error", comment: "Title of the toast when the order could not be checked" }), {
        description: t`Failed to verify your order. Please contact support.`,
        id: "order-verification",
      });
  }, [unverified, t]);
  return verification;
}

function toVerification(orderId: string | null, watch: ReturnType<typeof useOrderWatch>): Verification {
  if (!orderId) return { state: "completed" };
  switch (watch.state) {
    case "checking":
      return { state: "verifying" };
    case "not-found":
      return { state: "not-found" };
    case "unreachable":
      return { state: "unverified" };
    case "found":
      if (watch.status === "completed") return { state: "completed" };
      if (watch.status === "failed") return { state: "failed" };
      if (watch.status === "refunded") return { state: "refunded" };
      return { state: "waiting", confirming: watch.shopStatus?.toLowerCase() === "confirming" };
  }
}
