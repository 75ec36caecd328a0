import type { ClientFrame, ServerFrame } from '@assistente/contracts';

/** What the chat screens show about the agents websocket. */
export type ConnectionState =
  /** Not started, or stopped (signed out). */
  | 'idle'
  /** First connection under way. */
  | 'connecting'
  /** Authenticated: chat frames may be sent. */
  | 'ready'
  /** Lost; the next attempt is scheduled with backoff. */
  | 'reconnecting'
  /** The browser says it is offline; retried as soon as it is back. */
  | 'offline'
  /** The account may not use the socket (4403): no retry. */
  | 'forbidden';

/** The part of the browser's `WebSocket` the client uses (a fake in tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

/** Online/offline signal of the browser. */
export interface Connectivity {
  isOnline(): boolean;
  subscribe(listener: (online: boolean) => void): () => void;
}

export interface AgentsSocketOptions {
  url: string;
  /** The current id token (refreshed by the identity client), or null when signed out. */
  getToken: () => Promise<string | null>;
  createSocket?: (url: string) => SocketLike;
  /** Parses a text frame; null for anything that is not a known server frame. */
  parseFrame: (data: unknown) => ServerFrame | null;
  timers?: Timers;
  random?: () => number;
  connectivity?: Connectivity;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A ping is sent this long after the last frame… */
  pingAfterMs?: number;
  /** …and the socket is dropped when nothing answers within this. */
  pongTimeoutMs?: number;
  /** No `ready` within this after opening: the attempt failed. */
  authTimeoutMs?: number;
  /** How often a fresher id token is handed to an open socket. */
  tokenCheckMs?: number;
  /** The server refused the token (4401) or the account (4403): the session may be over. */
  onAccessDenied?: (kind: 'unauthenticated' | 'forbidden') => void;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 30_000;
/** Closed by the server for an account that lost access (WsCloseCodes.forbidden). */
const CLOSE_FORBIDDEN = 4403;
/** Closed by the server for a token it does not accept (WsCloseCodes.unauthenticated). */
const CLOSE_UNAUTHENTICATED = 4401;
const OPEN = 1;

/**
 * Exponential backoff with "equal jitter": attempt 0, 1, 2… waits between half and all of
 * 500 ms, 1 s, 2 s… capped at 30 s, so a server restart is not met by every tab at once.
 */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  base = BACKOFF_BASE_MS,
  max = BACKOFF_MAX_MS,
): number {
  const ceiling = Math.min(max, base * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

const browserTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
};

function browserConnectivity(): Connectivity {
  return {
    isOnline: () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false),
    subscribe(listener) {
      if (typeof window === 'undefined') return () => {};
      const on = () => listener(true);
      const off = () => listener(false);
      window.addEventListener('online', on);
      window.addEventListener('offline', off);
      return () => {
        window.removeEventListener('online', on);
        window.removeEventListener('offline', off);
      };
    },
  };
}

/**
 * The agents websocket client: authenticates with the first frame, reconnects with backoff,
 * keeps the connection alive with pings and hands a refreshed id token to the open socket.
 * After each (re)connection `onReady` listeners run, which resubscribe the open chats so a
 * stream in progress resumes (`chat.subscribe` → `message.snapshot` → deltas).
 */
export class AgentsSocket {
  private socket: SocketLike | null = null;
  private state: ConnectionState = 'idle';
  private attempt = 0;
  private started = false;
  private authenticated = false;
  private sentToken: string | null = null;
  private retryTimer: unknown = null;
  private pingTimer: unknown = null;
  private pongTimer: unknown = null;
  private authTimer: unknown = null;
  private tokenTimer: unknown = null;
  private unsubscribeConnectivity: (() => void) | null = null;
  private readonly frameListeners = new Set<(frame: ServerFrame) => void>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private readonly readyListeners = new Set<() => void>();
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly connectivity: Connectivity;
  private readonly createSocket: (url: string) => SocketLike;

  constructor(private readonly options: AgentsSocketOptions) {
    this.timers = options.timers ?? browserTimers;
    this.random = options.random ?? Math.random;
    this.connectivity = options.connectivity ?? browserConnectivity();
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url) as unknown as SocketLike);
  }

  get connectionState(): ConnectionState {
    return this.state;
  }

  /** Connects (once); later calls do nothing. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.unsubscribeConnectivity = this.connectivity.subscribe((online) => this.onConnectivity(online));
    if (!this.connectivity.isOnline()) {
      this.setState('offline');
      return;
    }
    this.open('connecting');
  }

  /** Closes for good (sign-out); `start()` connects again. */
  stop(): void {
    this.started = false;
    this.unsubscribeConnectivity?.();
    this.unsubscribeConnectivity = null;
    this.clearTimers();
    this.dropSocket();
    this.attempt = 0;
    this.setState('idle');
  }

  /** Sends a frame when the socket is ready; false otherwise (the caller shows it as offline). */
  send(frame: ClientFrame): boolean {
    if (this.state !== 'ready' || !this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  onFrame(listener: (frame: ServerFrame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  onState(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Runs after every successful (re)authentication. */
  onReady(listener: () => void): () => void {
    this.readyListeners.add(listener);
    return () => this.readyListeners.delete(listener);
  }

  /** Tries again now (e.g. the user pressed "reconnect"). */
  reconnectNow(): void {
    if (!this.started || this.state === 'ready' || this.state === 'connecting') return;
    this.attempt = 0;
    this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.open('reconnecting');
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private clearTimers(): void {
    for (const timer of [this.retryTimer, this.pingTimer, this.pongTimer, this.authTimer, this.tokenTimer]) {
      if (timer !== null) this.timers.clearTimeout(timer);
    }
    this.retryTimer = this.pingTimer = this.pongTimer = this.authTimer = this.tokenTimer = null;
  }

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = null;
    this.authenticated = false;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
    try {
      socket.close(1000, 'client closing');
    } catch {
      // already closed
    }
  }

  private open(state: 'connecting' | 'reconnecting'): void {
    this.dropSocket();
    this.setState(state);
    let socket: SocketLike;
    try {
      socket = this.createSocket(this.options.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => void this.authenticate(socket);
    socket.onmessage = (event) => this.onMessage(socket, event.data);
    socket.onerror = () => {
      // A close event follows; it decides what happens next.
    };
    socket.onclose = (event) => this.onClose(socket, event.code);
    this.authTimer = this.timers.setTimeout(() => {
      if (this.socket === socket && !this.authenticated) this.lose();
    }, this.options.authTimeoutMs ?? 10_000);
  }

  /** The session's token now, or null when there is none or it cannot be had. */
  private async currentToken(): Promise<string | null> {
    try {
      return await this.options.getToken();
    } catch {
      return null;
    }
  }

  private async authenticate(socket: SocketLike): Promise<void> {
    const token = await this.currentToken();
    if (this.socket !== socket) return;
    if (!token) {
      // Signed out meanwhile: nothing to connect for.
      this.stop();
      return;
    }
    this.sentToken = token;
    socket.send(JSON.stringify({ type: 'auth', token }));
  }

  private onMessage(socket: SocketLike, data: unknown): void {
    if (this.socket !== socket) return;
    this.armHeartbeat();
    let json: unknown;
    try {
      json = typeof data === 'string' ? JSON.parse(data) : null;
    } catch {
      return;
    }
    const frame = this.options.parseFrame(json);
    if (!frame) return;
    if (frame.type === 'ready' && !this.authenticated) {
      this.authenticated = true;
      this.attempt = 0;
      this.timers.clearTimeout(this.authTimer);
      this.authTimer = null;
      this.setState('ready');
      this.scheduleTokenCheck();
      for (const listener of this.readyListeners) listener();
    }
    if (frame.type === 'pong' || frame.type === 'ready') return;
    for (const listener of this.frameListeners) listener(frame);
  }

  /** Any frame proves the connection alive: ping only after a quiet spell. */
  private armHeartbeat(): void {
    this.timers.clearTimeout(this.pingTimer);
    this.timers.clearTimeout(this.pongTimer);
    this.pongTimer = null;
    const socket = this.socket;
    this.pingTimer = this.timers.setTimeout(() => {
      if (this.socket !== socket || !socket || socket.readyState !== OPEN) return;
      socket.send(JSON.stringify({ type: 'ping' }));
      this.pongTimer = this.timers.setTimeout(() => {
        if (this.socket === socket) this.lose();
      }, this.options.pongTimeoutMs ?? 10_000);
    }, this.options.pingAfterMs ?? 25_000);
  }

  private scheduleTokenCheck(): void {
    this.timers.clearTimeout(this.tokenTimer);
    this.tokenTimer = this.timers.setTimeout(
      () => void this.checkToken(),
      this.options.tokenCheckMs ?? 60_000,
    );
  }

  /** The server re-checks the token on every frame: give it the refreshed one before the old expires. */
  private async checkToken(): Promise<void> {
    const socket = this.socket;
    if (!socket || this.state !== 'ready') return;
    const token = await this.currentToken();
    if (this.socket !== socket) return;
    if (token && token !== this.sentToken && socket.readyState === OPEN) {
      this.sentToken = token;
      socket.send(JSON.stringify({ type: 'auth', token }));
    }
    this.scheduleTokenCheck();
  }

  private onClose(socket: SocketLike, code: number): void {
    if (this.socket !== socket) return;
    this.socket = null;
    this.authenticated = false;
    if (code === CLOSE_FORBIDDEN) {
      this.clearTimers();
      this.setState('forbidden');
      this.options.onAccessDenied?.('forbidden');
      return;
    }
    if (code === CLOSE_UNAUTHENTICATED) this.options.onAccessDenied?.('unauthenticated');
    // 4401 (bad or expired token) included: the next attempt asks the identity client for a fresh one.
    this.lose();
  }

  /** The connection is gone: retry with backoff (or wait for the network). */
  private lose(): void {
    this.clearTimers();
    this.dropSocket();
    if (!this.started) return;
    if (!this.connectivity.isOnline()) {
      this.setState('offline');
      return;
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    this.setState('reconnecting');
    const delay = backoffDelay(
      this.attempt,
      this.random,
      this.options.baseDelayMs ?? BACKOFF_BASE_MS,
      this.options.maxDelayMs ?? BACKOFF_MAX_MS,
    );
    this.attempt += 1;
    this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = this.timers.setTimeout(() => {
      this.retryTimer = null;
      if (this.started) this.open('reconnecting');
    }, delay);
  }

  private onConnectivity(online: boolean): void {
    if (!this.started) return;
    if (!online) {
      this.clearTimers();
      this.dropSocket();
      this.setState('offline');
      return;
    }
    if (this.state === 'offline' || this.state === 'reconnecting') {
      this.attempt = 0;
      this.clearTimers();
      this.open('reconnecting');
    }
  }
}
