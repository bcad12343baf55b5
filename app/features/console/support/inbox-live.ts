// Keeps an open inbox or conversation page current: the inbox's event stream names each conversation that changed
// on any instance, and the page's data is read again (at most once per burst, never while a form is on its way).
import { useEffect, useRef } from "react";
import { useNavigation, useRevalidator } from "react-router";

export const INBOX_EVENTS_URL = "/api/admin/support/events";

/** `only`: the conversation this page shows; without it every change counts (the lists). */
export function useInboxLive(only?: string) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const busy = useRef(false);
  busy.current = navigation.state !== "idle";
  const latest = useRef(revalidator);
  latest.current = revalidator;

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const events = new EventSource(INBOX_EVENTS_URL);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const readAgain = () => {
      timer = undefined;
      // A form on its way reads the page again when it lands; a read already running takes this change too.
      if (busy.current || latest.current.state !== "idle") {
        timer = setTimeout(readAgain, 300);
        return;
      }
      void latest.current.revalidate();
    };
    const changed = (event: MessageEvent<string>) => {
      if (only !== undefined && event.data !== only) return;
      timer ??= setTimeout(readAgain, 100);
    };
    events.addEventListener("changed", changed);
    // After a dropped stream, what changed meanwhile was not announced: read once when it is back.
    events.addEventListener("open", () => {
      timer ??= setTimeout(readAgain, 100);
    });
    return () => {
      events.close();
      if (timer) clearTimeout(timer);
    };
  }, [only]);
}
