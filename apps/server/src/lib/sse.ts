import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/** One open server-sent event stream. */
export interface EventStream {
  /** Sends `event: name` with `data` as JSON; nothing once the stream has ended. */
  send(name: string, data: unknown): void;
  /** Ends the stream (again: nothing). */
  end(): void;
  /** Runs `fn` once the stream ends, whoever ends it: the client, the server, its lifetime. */
  onEnd(fn: () => void): void;
  readonly ended: boolean;
}

export interface EventStreamOptions {
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs?: number;
  /** The stream ends after this long; the client reconnects (with a fresh token). */
  maxLifetimeMs?: number;
  /** A client that lets this much pile up unread is dropped rather than buffered without end. */
  maxBufferedBytes?: number;
}

/**
 * Answers `reply` with `200 text/event-stream` written by hand (a stream outlives Fastify's reply)
 * and hands back the raw response. Headers the request's hooks already set (security, CORS) are
 * kept: hijacking the reply would drop them.
 */
export function openEventStream(reply: FastifyReply): ServerResponse {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  return res;
}

/**
 * The server-sent event streams of one module: opens them on a hijacked reply, and ends every
 * one still open when the server closes (a stream never ends by itself, so `app.close()` would
 * wait for it).
 */
export class EventStreams {
  private readonly open = new Set<EventStream>();

  constructor(private readonly defaults: EventStreamOptions = {}) {}

  get size(): number {
    return this.open.size;
  }

  /** Answers `reply` with `200 text/event-stream` (openEventStream) and hands back the stream. */
  start(reply: FastifyReply, options: EventStreamOptions = {}): EventStream {
    const {
      heartbeatMs = 20_000,
      maxLifetimeMs = 10 * 60_000,
      maxBufferedBytes = 1 << 20,
    } = { ...this.defaults, ...options };
    const res = openEventStream(reply);
    const ends: Array<() => void> = [];
    let ended = false;
    const write = (text: string) => {
      if (ended || res.destroyed) return;
      res.write(text);
      if (res.writableLength > maxBufferedBytes) stream.end();
    };
    const heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs);
    const lifetime = setTimeout(() => stream.end(), maxLifetimeMs);
    const finish = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      this.open.delete(stream);
      for (const fn of ends) fn();
    };
    const stream: EventStream = {
      send: (name, data) => write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`),
      end: () => {
        if (ended) return;
        finish();
        if (!res.destroyed) res.end();
      },
      onEnd: (fn) => {
        if (ended) fn();
        else ends.push(fn);
      },
      get ended() {
        return ended;
      },
    };
    // The client went away (or the socket failed).
    res.on('close', finish);
    this.open.add(stream);
    return stream;
  }

  /** Ends every open stream (server shutdown). */
  endAll(): void {
    for (const stream of [...this.open]) stream.end();
  }
}
