/** One server-sent event: its `event:` name ("message" when none), its data lines joined, its id. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental `text/event-stream` parser, as the HTML standard reads one (§9.2.6): text is fed
 * as it arrives, cut anywhere; lines end in CRLF, LF or CR; `:` lines are comments; an event with
 * no data is not dispatched, and neither is one the stream ends in the middle of.
 */
export function createSseParser(onMessage: (message: SseMessage) => void): { feed(text: string): void } {
  let buffer = '';
  let started = false;
  let event = '';
  let data: string[] = [];
  let id: string | undefined;

  const dispatch = () => {
    if (data.length > 0) {
      onMessage({ event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
    }
    event = '';
    data = [];
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    // `retry` and unknown fields: ignored (the caller decides when to reconnect).
  };

  return {
    feed(text: string) {
      buffer += text;
      if (!started && buffer.length > 0) {
        started = true;
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
      }
      let from = 0;
      for (;;) {
        const cr = buffer.indexOf('\r', from);
        const lf = buffer.indexOf('\n', from);
        if (cr < 0 && lf < 0) break;
        const end = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
        // A CR last in the text may be the first half of a CRLF: wait for what follows.
        if (end === cr && cr === buffer.length - 1) break;
        line(buffer.slice(from, end));
        from = end + (end === cr && buffer[cr + 1] === '\n' ? 2 : 1);
      }
      buffer = buffer.slice(from);
    },
  };
}

/** Reads a response body of server-sent events to its end, handing each event over. */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: SseMessage) => void,
): Promise<void> {
  const parser = createSseParser(onMessage);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      // `stream`: a character cut between two chunks is decoded once both are in.
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}

export interface EventStreamWatch {
  /** The request to open, asked again before each (re)connection: a fresh token each time. */
  request(): Promise<{ url: string; headers: Record<string, string> }>;
  onMessage(message: SseMessage): void;
  /** Milliseconds to wait before a new try, by the number of tries since the last good stream. */
  delayMs?(attempt: number): number;
  fetch?: typeof fetch;
}

/** 0.5–1 s after a stream that was going, doubling up to 15–30 s while tries fail. */
export const reconnectDelay = (attempt: number) =>
  Math.min(30_000, 1_000 * 2 ** attempt) * (0.5 + Math.random() / 2);

/**
 * Reads an event stream with `fetch` (EventSource cannot send an Authorization header) and opens
 * it again whenever it ends or fails, backing off while it keeps failing. Answers a function that
 * stops it for good.
 */
export function watchEventStream(watch: EventStreamWatch): () => void {
  const stop = new AbortController();
  const { signal } = stop;
  const doFetch = watch.fetch ?? ((input, init) => fetch(input, init));
  const delay = watch.delayMs ?? reconnectDelay;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      signal.addEventListener('abort', wake, { once: true });
    });

  void (async () => {
    let attempt = 0;
    while (!signal.aborted) {
      try {
        const { url, headers } = await watch.request();
        const response = await doFetch(url, {
          headers: { ...headers, Accept: 'text/event-stream' },
          cache: 'no-store',
          signal,
        });
        if (response.ok && response.body) {
          await readEventStream(response.body, (message) => {
            // A stream that delivers is a good one: the next try after it comes quickly.
            attempt = 0;
            watch.onMessage(message);
          });
        } else await response.body?.cancel();
      } catch {
        // A network failure, a refused token, or stop(): the loop decides below.
      }
      if (signal.aborted) return;
      await sleep(delay(attempt++));
    }
  })();

  return () => stop.abort();
}
