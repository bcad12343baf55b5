// The status page's words for each state, as interface messages (docs/i18n.md). status.ts keeps the states themselves
// macro-free: the operator CLI and the Atom feed (English, unprefixed) read it without Lingui's build step.
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { DisplayStatus, IncidentStatus } from "./status";

/** A product's current state in its badge: lower case, as the badge capitalises it in CSS. */
export const STATUS_NAMES: Record<DisplayStatus, MessageDescriptor> = {
  operational: msg({ message: "operational", comment: "A product's current status (badge, capitalised by CSS)" }),
  maintenance: msg({ message: "maintenance", comment: "A product's current status (badge, capitalised by CSS)" }),
  outage: msg({ message: "outage", comment: "A product's current status (badge, capitalised by CSS)" }),
  unknown: msg({ message: "unknown", comment: "A product's current status (badge, capitalised by CSS)" }),
};

/** Legend order and wording; colours live with the badge component. */
export const STATUS_LEGEND: ReadonlyArray<{
  status: DisplayStatus;
  label: MessageDescriptor;
  description: MessageDescriptor;
}> = [
  {
    status: "operational",
    label: msg({ message: "Operational", comment: "Status legend: a product's status" }),
    description: msg`Working normally`,
  },
  {
    status: "maintenance",
    label: msg({ message: "Maintenance", comment: "Status legend: a product's status" }),
    description: msg`Planned work, may be briefly unavailable`,
  },
  {
    status: "outage",
    label: msg({ message: "Outage", comment: "Status legend: a product's status" }),
    description: msg`Not working, we are on it`,
  },
  {
    status: "unknown",
    label: msg({ message: "Unknown", comment: "Status legend: a product's status" }),
    description: msg`No current information`,
  },
];

/** Where an incident stands, as its badge and each of its updates say. */
export const INCIDENT_STATUS_NAMES: Record<IncidentStatus, MessageDescriptor> = {
  investigating: msg({ message: "Investigating", comment: "An incident's status: the cause is being looked for" }),
  identified: msg({ message: "Identified", comment: "An incident's status: the cause is known" }),
  monitoring: msg({ message: "Monitoring", comment: "An incident's status: fixed, being watched" }),
  resolved: msg({ message: "Resolved", comment: "An incident's status: over" }),
};
