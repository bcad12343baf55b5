// One read per burst (issue 42): a ring makes every open inbox page on an instance read its list again at about the
// same moment, and each of them would run the same (possibly text-searching) query. Pages asking for the same list
// while its read is still running share that read, unless a conversation rang since it started (it could miss that).
import { ANY_CONVERSATION, conversationDoorbell } from "~/features/support-conversation/conversation-doorbell.server";
import type { InboxFilter, InboxListing } from "./support.server";

interface SharedRead {
  generation: number;
  listing: Promise<InboxListing>;
}

const running = new Map<string, SharedRead>();
let generation = 0;
let heard: ReturnType<typeof conversationDoorbell> | undefined;
let stopHearing: (() => void) | undefined;

/** Counts the rings this instance hears (from any instance); the bell set at boot replaces the default one. */
function currentGeneration(): number {
  const bell = conversationDoorbell();
  if (heard !== bell) {
    stopHearing?.();
    heard = bell;
    stopHearing = bell.listen(ANY_CONVERSATION, () => {
      generation += 1;
    });
    generation += 1;
  }
  return generation;
}

/** The list's identity: what the query depends on (whose list only for "mine"). */
function listKey(filter: InboxFilter, page: number): string {
  const query = (filter.query ?? "").trim();
  return JSON.stringify([filter.state, filter.scope, filter.scope === "mine" ? filter.staffId : "", query, page]);
}

/** `read`'s listing, shared with every caller asking for the same list while it runs and nothing has rung since. */
export function sharedInboxRead(
  filter: InboxFilter,
  page: number,
  read: () => Promise<InboxListing>,
): Promise<InboxListing> {
  const key = listKey(filter, page);
  const now = currentGeneration();
  const shared = running.get(key);
  if (shared && shared.generation === now) return shared.listing;
  const listing = read();
  const entry = { generation: now, listing };
  running.set(key, entry);
  const forget = () => {
    if (running.get(key) === entry) running.delete(key);
  };
  listing.then(forget, forget);
  return listing;
}
