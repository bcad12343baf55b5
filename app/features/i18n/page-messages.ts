/**
 * How a page's chunks get their messages in the page's language (docs/decisions/017). The build ends each chunk whose
 * code uses messages with `await (self.__kestrelMessages ||= []).push(key)` (`messages.build.ts`): the chunks a page
 * starts with run before the entry and leave their key in a list; the entry takes the list over, and from then on a
 * push loads that chunk's messages and hands the chunk the promise to await, so a lazily loaded panel or route renders
 * only once its words are in.
 */
export const PAGE_MESSAGES_QUEUE = "__kestrelMessages";

/** Where the build writes a chunk's messages: `<dir>/<key>.<locale>.js`, each exporting `messages`. */
export const PAGE_MESSAGES_DIR = "assets/messages";

interface PageMessagesLoader {
  push(key: string): Promise<void>;
}

declare global {
  interface Window {
    __kestrelMessages?: string[] | PageMessagesLoader;
  }
}

/** Loads the messages of the chunks that ran before the entry, and of every chunk after them, through `load`. */
export async function takeOverPageMessages(load: (key: string) => Promise<void>): Promise<void> {
  const waiting = window.__kestrelMessages;
  window.__kestrelMessages = { push: load };
  if (Array.isArray(waiting)) await Promise.all(waiting.map(load));
}
