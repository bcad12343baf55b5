// The console's Deliveries room on the server: the list and the channels' health, and Retry on a failed one, written
// with its audit entry in one transaction; the workers are woken only after both are committed.
import { data, type RouterContextProvider } from "react-router";
import { auditedChange } from "~/features/audit/audit-log.server";
import { wakeMailDelivery } from "~/features/mail/mail.server";
import { auditInfo, NO_STORE, requireOwnOrigin, requireStaff } from "~/features/staff/door.server";
import { wakeSupportDelivery } from "~/features/support-relay/support-relay.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { readSmallForm } from "~/platform/form-request.server";
import { clientAddressContext } from "~/platform/request-context";
import {
  DELIVERY_KINDS,
  type DeliveryKind,
  listDeliveries,
  readDeliveryHealth,
  retryDelivery,
} from "./deliveries.server";

export async function loadDeliveriesPage(request: Request) {
  await requireStaff(request, "deliveries");
  const { db } = getDb();
  const [lines, health] = await pageDatabaseWork(() => Promise.all([listDeliveries(db), readDeliveryHealth(db)]));
  return data({ lines, health }, { headers: NO_STORE });
}

export type DeliveriesNotice =
  | { kind: "retried"; what: DeliveryKind }
  | { kind: "not-failed" }
  | { kind: "bad-request" };

function answer(notice: DeliveriesNotice, status: number) {
  return data({ notice }, { status, headers: NO_STORE });
}

/** Retry: one failed row, due again now; the worker of this process is woken, the others find it within a poll. */
export async function deliveriesAction(request: Request, context: Readonly<RouterContextProvider>) {
  const session = await requireStaff(request, "deliveries");
  requireOwnOrigin(request);
  const body = await readSmallForm(request);
  if (!body) return answer({ kind: "bad-request" }, 400);
  const kind = body.get("kind");
  const id = body.get("id");
  if (
    body.get("intent") !== "retry" ||
    !(DELIVERY_KINDS as readonly unknown[]).includes(kind) ||
    typeof id !== "string" ||
    id.length === 0 ||
    id.length > 100
  )
    return answer({ kind: "bad-request" }, 400);
  const what = kind as DeliveryKind;
  const { db } = getDb();
  const outcome = await pageDatabaseWork(() =>
    auditedChange(
      db,
      (trx) => retryDelivery(trx, what, id),
      (outcome) =>
        outcome === "requeued" && {
          actor: session.staff.email,
          action: "delivery-retried",
          target: id,
          detail: { kind: what, before: "failed", after: "pending" },
          sessionBeganWith: session.beganWith,
          ...auditInfo(request, context.get(clientAddressContext)),
        },
    ),
  );
  if (outcome === "not-failed") return answer({ kind: "not-failed" }, 409);
  if (what === "mail") wakeMailDelivery();
  else wakeSupportDelivery();
  return answer({ kind: "retried", what }, 200);
}
