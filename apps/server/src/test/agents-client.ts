// A real websocket client for tests and benches: every frame the server sends is checked against
// the contract's ServerFrameSchema, so a malformed server frame fails the test that received it.
import { type ServerFrame, ServerFrameSchema } from '@assistente/contracts';
import WebSocket from 'ws';

export type FrameOf<T extends ServerFrame['type']> = Extract<ServerFrame, { type: T }>;

export interface OpenOptions {
  origin?: string;
  /** Sends `{type:'auth',token}` and waits for `ready`. */
  token?: string;
  timeoutMs?: number;
}

export class TestSocket {
  readonly frames: ServerFrame[] = [];
  /** Frames that did not match the contract (should stay empty). */
  readonly invalid: unknown[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  closeInfo: { code: number; reason: string } | undefined;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const json: unknown = JSON.parse(String(data));
      const parsed = ServerFrameSchema.safeParse(json);
      if (parsed.success) this.frames.push(parsed.data);
      else this.invalid.push(json);
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: String(reason) };
        resolve(this.closeInfo);
        this.wake();
      });
    });
    ws.on('error', () => {});
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Connects (and authenticates when `token` is given). Rejects when the handshake is refused. */
  static async open(url: string, opts: OpenOptions = {}): Promise<TestSocket> {
    const ws = new WebSocket(url, { headers: opts.origin ? { origin: opts.origin } : {} });
    const socket = new TestSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) =>
        reject(new Error(`handshake refused: ${res.statusCode}`)),
      );
      ws.once('error', reject);
    });
    if (opts.token) {
      socket.send({ type: 'auth', token: opts.token });
      await socket.next('ready', undefined, opts.timeoutMs);
    }
    return socket;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The first frame of `type` (matching `pred`) received from index `from` on; waits for it. */
  async next<T extends ServerFrame['type']>(
    type: T,
    pred: (f: FrameOf<T>) => boolean = () => true,
    timeoutMs = 10_000,
    from = 0,
  ): Promise<FrameOf<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = from; i < this.frames.length; i++) {
        const f = this.frames[i] as ServerFrame;
        if (f.type === type && pred(f as FrameOf<T>)) return f as FrameOf<T>;
      }
      if (this.closeInfo) throw new Error(`socket closed (${this.closeInfo.code}) before a ${type} frame`);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `no ${type} frame within ${timeoutMs} ms; got ${this.frames.map(describeFrame).join(', ')}`,
        );
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** All frames of `type` received so far. */
  all<T extends ServerFrame['type']>(type: T): Array<FrameOf<T>> {
    return this.frames.filter((f): f is FrameOf<T> => f.type === type);
  }

  /** The text of an answer as the deltas (after an optional snapshot) built it. */
  textOf(messageId: string): string {
    let text = '';
    for (const f of this.frames) {
      if (f.type === 'message.snapshot' && f.message.messageId === messageId) text = f.message.content;
      if (f.type === 'message.delta' && f.messageId === messageId) text += f.delta;
    }
    return text;
  }

  close(): Promise<{ code: number; reason: string }> {
    if (!this.closeInfo) this.ws.close();
    return this.closed;
  }
}

/** A frame's type, with an error's code so a failed wait says what went wrong. */
function describeFrame(f: ServerFrame): string {
  return f.type === 'error' ? `error(${f.code})` : f.type;
}
