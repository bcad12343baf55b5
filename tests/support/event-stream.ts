// A Server-Sent Events reader for tests and the bench: parses `id`, `event`, `data` and comments as a browser would.

export interface StreamEvent {
  id?: string;
  event: string;
  data: string;
}

export interface EventStreamReader {
  status: number;
  headers: Headers;
  events: StreamEvent[];
  /** Comment lines seen (`: ping`). */
  comments: string[];
  retry?: number;
  /** Resolves with the first event (already received or later) matching `test`; rejects after `timeoutMs`. */
  waitFor(test: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
  onEvent?: (event: StreamEvent) => void,
): Promise<EventStreamReader> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal });
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const reader: EventStreamReader = {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    waitFor(test, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(test);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    ended: Promise.resolve(),
    close: () => abort.abort(),
  };
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => {});
    return reader;
  }
  const body = res.body.pipeThrough(new TextDecoderStream());
  reader.ended = (async () => {
    let buffer = "";
    try {
      for await (const chunk of body) {
        buffer += chunk;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: StreamEvent = { event: "message", data: "" };
          const data: string[] = [];
          let hasData = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line.slice(1).trim());
            else {
              const colon = line.indexOf(":");
              const field = colon < 0 ? line : line.slice(0, colon);
              const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
              if (field === "id") event.id = value;
              else if (field === "event") event.event = value;
              else if (field === "retry") reader.retry = Number(value);
              else if (field === "data") {
                data.push(value);
                hasData = true;
              }
            }
          }
          if (hasData) {
            event.data = data.join("\n");
            events.push(event);
            onEvent?.(event);
            for (const waiter of [...waiters]) waiter();
          }
        }
      }
    } catch {
      // Aborted by close(), or the server went away: the stream has ended either way.
    }
  })();
  return reader;
}
