import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { EventStreamReader } from '../test/event-stream.ts';
import { type EventStream, type EventStreamOptions, EventStreams } from './sse.ts';

let app: FastifyInstance | undefined;

/** A bare server whose GET /s opens a stream with `options`; answers its URL and the streams. */
async function serve(options: EventStreamOptions) {
  const streams = new EventStreams(options);
  const opened: EventStream[] = [];
  const ended: EventStream[] = [];
  app = Fastify();
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
  });
  app.get('/s', async (_request, reply) => {
    const stream = streams.start(reply);
    stream.onEnd(() => ended.push(stream));
    opened.push(stream);
    stream.send('hello', { n: 1 });
  });
  app.addHook('preClose', async () => streams.endAll());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/s`;
  return { url, streams, opened, ended };
}

const until = async (check: () => boolean, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('server-sent event streams', () => {
  it('sends events and heartbeats, keeps the hooks’ headers, and ends after its lifetime', async () => {
    const s = await serve({ heartbeatMs: 30, maxLifetimeMs: 400 });
    const started = Date.now();
    const reader = await EventStreamReader.open(s.url);
    expect(reader.events).toEqual([]);
    await reader.next((e) => e.event === 'hello');
    expect(reader.events).toEqual([{ event: 'hello', data: { n: 1 } }]);
    await reader.ended;
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(reader.comments).toBeGreaterThanOrEqual(3);
    expect(s.ended).toHaveLength(1);
    expect(s.streams.size).toBe(0);
  });

  it('notices a client that went away', async () => {
    const s = await serve({});
    const reader = await EventStreamReader.open(s.url);
    await reader.next((e) => e.event === 'hello');
    reader.close();
    await until(() => s.ended.length === 1);
    expect(s.streams.size).toBe(0);
    // Sending to it now does nothing.
    s.opened[0]?.send('late', {});
  });

  it('drops a client that stops reading rather than buffer for it without end', async () => {
    const s = await serve({ maxBufferedBytes: 64 * 1024 });
    // Opened, never read: the socket's buffers fill, then the stream's.
    const response = await fetch(s.url);
    expect(response.status).toBe(200);
    await until(() => s.opened.length === 1);
    const stream = s.opened[0] as EventStream;
    const big = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 20_000 && !stream.ended; i++) {
      stream.send('fill', big);
      if (i % 64 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(stream.ended).toBe(true);
    await response.body?.cancel();
  });

  it('app.close() ends every open stream', async () => {
    const s = await serve({});
    const readers = await Promise.all([EventStreamReader.open(s.url), EventStreamReader.open(s.url)]);
    await until(() => s.opened.length === 2);
    const started = Date.now();
    await app?.close();
    app = undefined;
    expect(Date.now() - started).toBeLessThan(1_000);
    await Promise.all(readers.map((r) => r.ended));
    expect(s.ended).toHaveLength(2);
  });
});
