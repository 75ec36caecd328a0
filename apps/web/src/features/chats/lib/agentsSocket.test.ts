import type { ServerFrame } from '@assistente/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AgentsSocket,
  backoffDelay,
  type ConnectionState,
  type Connectivity,
  type SocketLike,
} from './agentsSocket.ts';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closed: { code?: number } | null = null;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason?: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close(code?: number) {
    this.closed = { code };
    this.readyState = 3;
  }
  // Server side of the test:
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  frames(): Array<{ type: string } & Record<string, unknown>> {
    return this.sent.map((s) => JSON.parse(s) as { type: string } & Record<string, unknown>);
  }
}

const ready: ServerFrame = {
  type: 'ready',
  userId: 'ana@acme.com',
  limits: { maxFrameBytes: 1_048_576, maxConcurrent: 3, sendsPerMinute: 30 },
};

function parse(data: unknown): ServerFrame | null {
  return typeof data === 'object' && data !== null && 'type' in data ? (data as ServerFrame) : null;
}

function setup(options: { online?: boolean; token?: () => Promise<string | null> } = {}) {
  const sockets: FakeSocket[] = [];
  let online = options.online ?? true;
  const connectivityListeners = new Set<(online: boolean) => void>();
  const connectivity: Connectivity = {
    isOnline: () => online,
    subscribe(listener) {
      connectivityListeners.add(listener);
      return () => connectivityListeners.delete(listener);
    },
  };
  const states: ConnectionState[] = [];
  const client = new AgentsSocket({
    url: 'ws://test/api/v1/agents/chat/',
    getToken: options.token ?? (async () => 'token-1'),
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    parseFrame: parse,
    random: () => 1,
    connectivity,
  });
  client.onState((s) => states.push(s));
  const setOnline = (value: boolean) => {
    online = value;
    for (const l of connectivityListeners) l(value);
  };
  const last = () => sockets[sockets.length - 1] as FakeSocket;
  /** Opens the newest socket and lets the auth frame go out. */
  const connect = async () => {
    last().open();
    await vi.advanceTimersByTimeAsync(0);
    last().receive(ready);
  };
  return { client, sockets, states, setOnline, last, connect };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('backoffDelay', () => {
  it('doubles from 500 ms up to 30 s, with jitter between half and all of it', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, () => 1))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(backoffDelay(3, () => 0)).toBe(2000);
    expect(backoffDelay(50, () => 0.5)).toBe(22500);
  });
});

describe('AgentsSocket', () => {
  it('sends the id token as the first frame and is ready on the ready frame', async () => {
    const { client, last, connect, states } = setup();
    client.start();
    expect(states).toEqual(['connecting']);
    await connect();
    expect(last().frames()[0]).toEqual({ type: 'auth', token: 'token-1' });
    expect(last().url).not.toContain('token');
    expect(client.connectionState).toBe('ready');
    expect(client.send({ type: 'chat.stop', chatId: '00000000-0000-4000-8000-000000000000' })).toBe(true);
    expect(last().frames()[1]?.type).toBe('chat.stop');
  });

  it('refuses to send before it is ready', () => {
    const { client } = setup();
    client.start();
    expect(client.send({ type: 'ping' })).toBe(false);
  });

  it('reconnects with exponential backoff and resets it after a success', async () => {
    const { client, sockets, last, connect, states } = setup();
    client.start();
    await connect();
    last().drop();
    expect(client.connectionState).toBe('reconnecting');
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);
    // The next failures wait 1 s, then 2 s.
    last().drop();
    await vi.advanceTimersByTimeAsync(999);
    expect(sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(3);
    last().drop();
    await vi.advanceTimersByTimeAsync(1999);
    expect(sockets).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(4);
    await connect();
    expect(client.connectionState).toBe('ready');
    // Success resets the backoff: the next drop waits 500 ms again.
    last().drop();
    await vi.advanceTimersByTimeAsync(500);
    expect(sockets).toHaveLength(5);
    expect(states).toContain('reconnecting');
  });

  it('resubscribes after every reconnection (onReady), so a stream in progress resumes', async () => {
    const { client, last, connect } = setup();
    const onReady = vi.fn();
    client.onReady(onReady);
    client.start();
    await connect();
    expect(onReady).toHaveBeenCalledTimes(1);
    last().drop();
    await vi.advanceTimersByTimeAsync(500);
    await connect();
    expect(onReady).toHaveBeenCalledTimes(2);
  });

  it('hands frames other than ready and pong to listeners', async () => {
    const { client, last, connect } = setup();
    const frames: ServerFrame[] = [];
    client.onFrame((f) => frames.push(f));
    client.start();
    await connect();
    last().receive({ type: 'pong' });
    last().receive({ type: 'message.delta', chatId: 'c', messageId: 'm', delta: 'Hi' });
    last().receive('not json at all');
    expect(frames).toEqual([{ type: 'message.delta', chatId: 'c', messageId: 'm', delta: 'Hi' }]);
  });

  it('pings after a quiet spell and drops a connection that does not answer', async () => {
    const { client, sockets, last, connect } = setup();
    client.start();
    await connect();
    await vi.advanceTimersByTimeAsync(25_000);
    expect(last().frames().at(-1)).toEqual({ type: 'ping' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(client.connectionState).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(500);
    expect(sockets).toHaveLength(2);
  });

  it('gives up for good when the account loses access (4403)', async () => {
    const { client, sockets, last, connect } = setup();
    client.start();
    await connect();
    last().drop(4403);
    expect(client.connectionState).toBe('forbidden');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('retries a rejected token (4401) with a fresh one', async () => {
    let n = 0;
    const { client, last, connect } = setup({ token: async () => `token-${++n}` });
    client.start();
    await connect();
    last().drop(4401);
    await vi.advanceTimersByTimeAsync(500);
    last().open();
    await vi.advanceTimersByTimeAsync(0);
    expect(last().frames()[0]).toEqual({ type: 'auth', token: 'token-2' });
    expect(client.connectionState).toBe('reconnecting');
  });

  it('waits offline without retrying and reconnects at once when the network is back', async () => {
    const { client, sockets, setOnline, connect } = setup();
    client.start();
    await connect();
    setOnline(false);
    expect(client.connectionState).toBe('offline');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(1);
    setOnline(true);
    expect(sockets).toHaveLength(2);
    expect(client.connectionState).toBe('reconnecting');
  });

  it('hands a refreshed id token to the open socket', async () => {
    let token = 'token-1';
    const { client, last, connect } = setup({ token: async () => token });
    client.start();
    await connect();
    token = 'token-2';
    // Traffic keeps the connection alive meanwhile.
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(20_000);
      last().receive({ type: 'pong' });
    }
    expect(
      last()
        .frames()
        .filter((f) => f.type === 'auth'),
    ).toEqual([
      { type: 'auth', token: 'token-1' },
      { type: 'auth', token: 'token-2' },
    ]);
    // A second ready (for the new token) does not count as a reconnection.
    const onReady = vi.fn();
    client.onReady(onReady);
    last().receive(ready);
    expect(onReady).not.toHaveBeenCalled();
  });

  it('stops for good on sign-out (no token) and on stop()', async () => {
    const { client, sockets, last } = setup({ token: async () => null });
    client.start();
    last().open();
    await vi.advanceTimersByTimeAsync(0);
    expect(client.connectionState).toBe('idle');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('can be told to retry now', async () => {
    const { client, sockets, last, connect } = setup();
    client.start();
    await connect();
    last().drop();
    await vi.advanceTimersByTimeAsync(100);
    client.reconnectNow();
    expect(sockets).toHaveLength(2);
  });
});
