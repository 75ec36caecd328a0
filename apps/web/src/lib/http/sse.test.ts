import { describe, expect, it, vi } from 'vitest';
import { createSseParser, readEventStream, type SseMessage, watchEventStream } from './sse.ts';

function parse(...chunks: string[]): SseMessage[] {
  const out: SseMessage[] = [];
  const parser = createSseParser((m) => out.push(m));
  for (const c of chunks) parser.feed(c);
  return out;
}

const STREAM =
  ': keep-alive\n\nevent: ready\ndata: {"type":"ready"}\n\nevent: source\ndata: {"a":1,\ndata: "b":2}\n\n';

describe('the server-sent event parser', () => {
  it('reads named events, joins data lines and skips comments', () => {
    expect(parse(STREAM)).toEqual([
      { event: 'ready', data: '{"type":"ready"}' },
      { event: 'source', data: '{"a":1,\n"b":2}' },
    ]);
  });

  it('gives the same events however the text is cut', () => {
    const whole = parse(STREAM);
    for (let size = 1; size < 12; size++) {
      const chunks = [];
      for (let i = 0; i < STREAM.length; i += size) chunks.push(STREAM.slice(i, i + size));
      expect(parse(...chunks)).toEqual(whole);
    }
  });

  it('takes CRLF, CR and LF line ends, a CRLF cut in two included', () => {
    const expected = [
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
      { event: 'c', data: '3' },
    ];
    expect(parse('event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n')).toEqual(expected);
    expect(
      parse('event: a\r', '\ndata: 1\r', '\n\r', '\nevent: b\rdata: 2\r\r', 'event: c\ndata: 3\n\n'),
    ).toEqual(expected);
  });

  it('follows the standard’s field rules: one space dropped, no colon, ids, no data, a BOM', () => {
    expect(
      parse(
        '\uFEFFdata:x\n\n',
        'data:  two spaces\n\n',
        'data\n\n',
        'id: 7\nevent: e\n\n',
        'data: after id\n\n',
      ),
    ).toEqual([
      { event: 'message', data: 'x' },
      { event: 'message', data: ' two spaces' },
      { event: 'message', data: '' },
      // `event: e` had no data: not dispatched, and its name does not carry over.
      { event: 'message', data: 'after id', id: '7' },
    ]);
  });

  it('never dispatches an event the stream ends in the middle of', () => {
    expect(parse('event: a\ndata: 1\n\nevent: b\ndata: 2\n')).toEqual([{ event: 'a', data: '1' }]);
  });

  it('reads a response body, a character cut between chunks included', async () => {
    const bytes = new TextEncoder().encode('data: olá ✓\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const b of bytes) controller.enqueue(new Uint8Array([b]));
        controller.close();
      },
    });
    const got: SseMessage[] = [];
    await readEventStream(body, (m) => got.push(m));
    expect(got).toEqual([{ event: 'message', data: 'olá ✓' }]);
  });
});

/** A response whose body streams `text`, then ends. */
const streamed = (text: string) => new Response(text, { headers: { 'content-type': 'text/event-stream' } });

describe('watching an event stream', () => {
  it('reconnects when the stream ends, asking for the request (a fresh token) each time', async () => {
    let n = 0;
    const request = vi.fn(async () => ({ url: '/events', headers: { Authorization: `Bearer t${++n}` } }));
    const seen: string[] = [];
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) =>
      streamed(`data: ${new Headers(init?.headers).get('Authorization')}\n\n`),
    );
    const delays: number[] = [];
    const stop = watchEventStream({
      request,
      fetch,
      onMessage: (m) => seen.push(m.data),
      delayMs: (attempt) => {
        delays.push(attempt);
        return 1;
      },
    });
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(3));
    stop();
    expect(seen.slice(0, 3)).toEqual(['Bearer t1', 'Bearer t2', 'Bearer t3']);
    expect(fetch.mock.calls[0]?.[1]?.headers).toMatchObject({ Accept: 'text/event-stream' });
    // Each stream delivered: the next try always comes at the shortest delay.
    expect(new Set(delays)).toEqual(new Set([0]));
  });

  it('backs off while it fails, and starts over once a stream delivers', async () => {
    let calls = 0;
    const fetch = vi.fn(async () => {
      calls++;
      if (calls <= 3) throw new TypeError('network down');
      if (calls === 4) return new Response('{"error":{}}', { status: 401 });
      return streamed('data: up\n\n');
    });
    const delays: number[] = [];
    const seen: string[] = [];
    const stop = watchEventStream({
      request: async () => ({ url: '/events', headers: {} }),
      fetch,
      onMessage: (m) => seen.push(m.data),
      delayMs: (attempt) => {
        delays.push(attempt);
        return 1;
      },
    });
    await vi.waitFor(() => expect(delays.length).toBeGreaterThanOrEqual(6));
    stop();
    expect(delays.slice(0, 6)).toEqual([0, 1, 2, 3, 0, 0]);
    expect(seen[0]).toBe('up');
  });

  it('stops for good: the open stream is aborted and no try follows', async () => {
    let signal: AbortSignal | undefined;
    const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      // A stream that stays open until aborted.
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('data: open\n\n'));
            init?.signal?.addEventListener('abort', () =>
              controller.error(new DOMException('aborted', 'AbortError')),
            );
          },
        }),
      );
    });
    const seen: string[] = [];
    const stop = watchEventStream({
      request: async () => ({ url: '/events', headers: {} }),
      fetch,
      onMessage: (m) => seen.push(m.data),
      delayMs: () => 1,
    });
    await vi.waitFor(() => expect(seen).toEqual(['open']));
    stop();
    expect(signal?.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
