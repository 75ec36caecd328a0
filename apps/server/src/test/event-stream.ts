// A server-sent event stream read over a real socket with fetch, as a browser's fetch reads it:
// for tests of the routes that answer `text/event-stream`.

export interface ReadEvent {
  event: string;
  data: unknown;
}

export class EventStreamReader {
  /** Every event so far, in order. */
  readonly events: ReadEvent[] = [];
  /** Comment lines (heartbeats) so far. */
  comments = 0;
  /** Resolves when the server ends the stream (or the socket fails). */
  readonly ended: Promise<void>;
  private readonly waiters = new Set<() => void>();
  private done = false;

  private constructor(
    private readonly response: Response,
    private readonly abort: AbortController,
  ) {
    this.ended = this.pump().finally(() => {
      this.done = true;
      for (const w of [...this.waiters]) w();
    });
  }

  /** Opens `url` (200 `text/event-stream` expected: anything else throws with its body). */
  static async open(url: string, headers: Record<string, string> = {}): Promise<EventStreamReader> {
    const abort = new AbortController();
    const response = await fetch(url, { headers, signal: abort.signal });
    if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      throw new Error(`expected an event stream, got ${response.status}: ${await response.text()}`);
    }
    return new EventStreamReader(response, abort);
  }

  get isEnded(): boolean {
    return this.done;
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of this.response.body as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          this.take(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      }
    } catch {
      // Aborted by close(), or the socket went away: either way the stream has ended.
    }
  }

  private take(block: string): void {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) this.comments++;
      else if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) this.events.push({ event, data: JSON.parse(data.join('\n')) });
    for (const w of [...this.waiters]) w();
  }

  /**
   * The first event at or after `from` that `match` accepts; waits up to `timeoutMs` for it.
   * Answers it with its index.
   */
  async next(
    match: (e: ReadEvent) => boolean,
    { from = 0, timeoutMs = 20_000 }: { from?: number; timeoutMs?: number } = {},
  ): Promise<{ event: ReadEvent; index: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.events.findIndex((e, i) => i >= from && match(e));
      if (index >= 0) return { event: this.events[index] as ReadEvent, index };
      if (this.done)
        throw new Error(`the stream ended without the event; got ${JSON.stringify(this.events)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such event in ${timeoutMs} ms; got ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  /** Goes away, as a closed tab does. */
  close(): void {
    this.abort.abort();
  }
}
