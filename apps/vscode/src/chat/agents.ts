import { type ClientFrame, type ServerFrame, ServerFrameSchema, WsCloseCodes } from '@assistente/contracts';
import WebSocket from 'ws';

export interface AgentsDeps {
  url: () => Promise<string>;
  /** The current id token, renewed if needed; undefined when signed out. */
  token: () => Promise<string | undefined>;
  /** The server refused the token (4401): the caller checks whether the session still lives. */
  onUnauthenticated: () => Promise<boolean>;
  onFrame: (frame: ServerFrame) => void;
  onStatus?: (connected: boolean) => void;
  /** Milliseconds before reconnect attempt `attempt` (0-based); `reconnectDelay` unless a test needs it faster. */
  reconnectDelay?: (attempt: number) => number;
}

/** Reconnect after 0.5 s, doubling up to 30 s. */
export const reconnectDelay = (attempt: number) => Math.min(500 * 2 ** attempt, 30_000);

/**
 * The agents websocket from the extension host (the webview never holds tokens). It authenticates with the
 * `auth` frame, queues frames until `ready`, and reconnects with backoff; a 4401 close asks whether the
 * session still lives before trying again.
 */
export class AgentsClient {
  private socket: WebSocket | null = null;
  private ready = false;
  private queue: ClientFrame[] = [];
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(private readonly deps: AgentsDeps) {}

  send(frame: ClientFrame): void {
    if (this.ready && this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
    else {
      this.queue.push(frame);
      void this.connect();
    }
  }

  /** Drops the connection (sign-out); the next `send` connects again. */
  reset(): void {
    clearTimeout(this.timer);
    this.queue = [];
    const s = this.socket;
    this.socket = null;
    this.ready = false;
    s?.close(1000);
  }

  dispose(): void {
    this.closed = true;
    this.reset();
  }

  private async connect(): Promise<void> {
    if (this.socket || this.closed) return;
    const token = await this.deps.token();
    if (!token) {
      this.queue = [];
      return;
    }
    if (this.socket) return;
    const socket = new WebSocket(await this.deps.url(), { handshakeTimeout: 10_000 });
    this.socket = socket;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token })));
    socket.on('message', (data) => {
      let frame: ServerFrame;
      try {
        frame = ServerFrameSchema.parse(JSON.parse(data.toString()));
      } catch {
        return;
      }
      if (frame.type === 'ready') {
        this.ready = true;
        this.attempt = 0;
        this.deps.onStatus?.(true);
        for (const f of this.queue.splice(0)) socket.send(JSON.stringify(f));
      }
      this.deps.onFrame(frame);
    });
    socket.on('error', () => {
      // 'close' follows and decides what to do.
    });
    socket.on('close', (code) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.ready = false;
      this.deps.onStatus?.(false);
      if (this.closed) return;
      if (code === WsCloseCodes.unauthenticated || code === WsCloseCodes.forbidden) {
        void this.deps.onUnauthenticated().then((alive) => {
          if (alive && this.queue.length) this.retry();
          else if (!alive) this.queue = [];
        });
        return;
      }
      if (this.queue.length || code === WsCloseCodes.goingAway) this.retry();
    });
  }

  private retry(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(
      () => void this.connect(),
      (this.deps.reconnectDelay ?? reconnectDelay)(this.attempt++),
    );
  }
}
