// The doorbell: "conversation X has something new". It carries no data (readers always read the database); this
// process's bell rings its own listeners, and a shared bell (PostgreSQL NOTIFY or Redis pub/sub) set at boot carries
// the ring to every instance, so a reply stored by one reaches a visitor connected to another.
import { EventEmitter } from "node:events";

export interface ConversationDoorbell {
  /** Announces that the conversation has a new message or changed status. */
  ring(conversationId: string): void;
  /**
   * Calls `listener` on every ring of the conversation (from any instance) until the returned function is called;
   * on `ANY_CONVERSATION`, on every ring of any, with the conversation's id.
   */
  listen(conversationId: string, listener: (conversationId?: string) => void): () => void;
  close?(): Promise<void>;
}

/** Listening on this hears every conversation's ring (the console's inbox); no conversation has it as its id. */
export const ANY_CONVERSATION = "*";

/** One process's bell: enough for one instance (and for tests); shared bells build on it for their local side. */
export function createLocalDoorbell(): ConversationDoorbell & { ringLocally(conversationId: string): void } {
  const events = new EventEmitter();
  // Thousands of open streams may listen; each is one listener on its own conversation's event.
  events.setMaxListeners(0);
  const ringLocally = (conversationId: string) => {
    events.emit(conversationId);
    if (conversationId !== ANY_CONVERSATION) events.emit(ANY_CONVERSATION, conversationId);
  };
  return {
    ring: ringLocally,
    ringLocally,
    listen(conversationId, listener) {
      events.on(conversationId, listener);
      return () => events.off(conversationId, listener);
    },
  };
}

let doorbell: ConversationDoorbell = createLocalDoorbell();

export function conversationDoorbell(): ConversationDoorbell {
  return doorbell;
}

/** Boot sets the shared bell; returns the one it replaced. */
export function setConversationDoorbell(next: ConversationDoorbell): ConversationDoorbell {
  const previous = doorbell;
  doorbell = next;
  return previous;
}

export function ringConversation(conversationId: string) {
  doorbell.ring(conversationId);
}
