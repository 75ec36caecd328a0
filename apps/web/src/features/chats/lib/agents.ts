import type { Chat, ChatParams, ClientFrame, ServerFrame } from '@assistente/contracts';
import { AgentsSocket, type AgentsSocketOptions, type ConnectionState } from './agentsSocket.ts';
import {
  type ChatStore,
  createChatStore,
  createDeltaBatcher,
  type RequestError,
  requestErrorOf,
  streamingIds,
} from './chatStore.ts';

/** What the chats list (TanStack Query cache) hears from the socket. */
export interface ChatListEvents {
  chatCreated(chat: Chat): void;
  chatUpdated(chat: Chat): void;
  /** A message was written in the chat: it moves to the top of the list. */
  activity(chatId: string): void;
  /** An answer ended or a send was refused: what the person has used of their budgets changed. */
  usageChanged(): void;
}

export interface SendInput {
  chatId: string | null;
  content: string;
  agentId?: string | null;
  attachments?: string[];
  parentId?: string | null;
  params?: ChatParams;
}

export interface PendingRequest {
  /** For a send that creates its chat: the chat, as soon as the server made it. */
  chat: Promise<Chat>;
  /**
   * Resolves once the server announces the user's message (stored); rejects with the error when
   * it refused the send before storing anything (no provider, rate limit…): nothing was sent.
   * Left pending when the answer is lost with the connection.
   */
  stored: Promise<void>;
}

type Waiter<T> = { resolve: (value: T) => void; reject: (error: { code: string; message: string }) => void };

let counter = 0;
function newRequestId(): string {
  counter += 1;
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : String(Math.random());
  return `r${counter}-${random}`;
}

/** The frames this client knows: a newer server's others are let pass by, as before they were known. */
const SERVER_FRAME_TYPES: Readonly<Record<ServerFrame['type'], true>> = {
  ready: true,
  pong: true,
  'chat.created': true,
  'chat.updated': true,
  'message.created': true,
  'message.delta': true,
  'message.snapshot': true,
  'message.done': true,
  'tool.call': true,
  'tool.result': true,
  'chat.subscribed': true,
  error: true,
};

/**
 * A frame the server sent, by its type. Its body is not parsed: the server's frames are checked
 * against the contracts' schemas in its tests, and the chats' JavaScript budget has no room for
 * the schema library (docs/ARCHITECTURE.md#calling-the-api).
 */
function parseFrame(data: unknown): ServerFrame | null {
  if (typeof data !== 'object' || data === null) return null;
  const type = (data as { type?: unknown }).type;
  return typeof type === 'string' && Object.hasOwn(SERVER_FRAME_TYPES, type) ? (data as ServerFrame) : null;
}

/**
 * The chats' live side: one agents websocket for the tab, the message store it feeds, and the
 * chats that are open (resubscribed after every reconnect, so a stream in progress resumes).
 */
export class AgentsController {
  readonly socket: AgentsSocket;
  readonly store: ChatStore;
  private readonly open = new Map<string, number>();
  /**
   * Sends not yet decided by their user message or an error, by requestId: whether it was
   * stored, and for a new chat the chat the server makes for it.
   */
  private readonly sends = new Map<string, { stored: Waiter<void>; chat?: Waiter<Chat> }>();
  private readonly batcher = createDeltaBatcher((deltas) => this.store.dispatch({ type: 'deltas', deltas }));
  private listEvents: ChatListEvents | null = null;
  /** Chats whose answers may have ended while the socket was down: their messages are read again. */
  private readonly staleListeners = new Set<(chatId: string) => void>();

  constructor(
    options: Omit<AgentsSocketOptions, 'parseFrame'> & { parseFrame?: AgentsSocketOptions['parseFrame'] },
  ) {
    this.store = createChatStore();
    this.socket = new AgentsSocket({ parseFrame, ...options });
    this.socket.onFrame((frame) => this.onFrame(frame));
    this.socket.onReady(() => {
      for (const chatId of this.open.keys()) this.subscribe(chatId);
    });
    this.socket.onState((state) => {
      if (state === 'idle' || state === 'forbidden') {
        // Whether these were stored is unknown: `stored` stays pending, as giving their drafts back
        // could send them twice; a chat that never came is an error.
        for (const send of this.sends.values()) send.chat?.reject({ code: 'UNAVAILABLE', message: state });
        this.sends.clear();
      }
    });
  }

  get state(): ConnectionState {
    return this.socket.connectionState;
  }

  setListEvents(events: ChatListEvents | null): void {
    this.listEvents = events;
  }

  onStale(listener: (chatId: string) => void): () => void {
    this.staleListeners.add(listener);
    return () => this.staleListeners.delete(listener);
  }

  /** The chat is on screen: its frames are kept and it is resubscribed on reconnect. */
  openChat(chatId: string): () => void {
    this.open.set(chatId, (this.open.get(chatId) ?? 0) + 1);
    return () => {
      const n = (this.open.get(chatId) ?? 1) - 1;
      if (n <= 0) this.open.delete(chatId);
      else this.open.set(chatId, n);
    };
  }

  /** Asks for the chat's answers in progress (snapshot, then live deltas). */
  subscribe(chatId: string): void {
    this.socket.send({ type: 'chat.subscribe', chatId, requestId: newRequestId() });
  }

  private frame(frame: ClientFrame): boolean {
    return this.socket.send(frame);
  }

  /** Sends a message; null when the socket is not ready. A new chat (`chatId: null`) resolves `chat`. */
  send(input: SendInput): PendingRequest | null {
    const requestId = newRequestId();
    const frame: ClientFrame = {
      type: 'chat.send',
      requestId,
      chatId: input.chatId,
      content: input.content,
      ...(input.agentId ? { agentId: input.agentId } : {}),
      ...(input.attachments && input.attachments.length > 0 ? { attachments: input.attachments } : {}),
      ...(input.parentId !== undefined ? { parentId: input.parentId } : {}),
      ...(input.params ? { params: input.params } : {}),
    };
    let chatWaiter: Waiter<Chat> | undefined;
    const chat = new Promise<Chat>((resolve, reject) => {
      if (input.chatId === null) chatWaiter = { resolve, reject };
    });
    const stored = new Promise<void>((resolve, reject) => {
      this.sends.set(requestId, { stored: { resolve, reject }, ...(chatWaiter ? { chat: chatWaiter } : {}) });
    });
    chat.catch(() => undefined);
    stored.catch(() => undefined);
    if (!this.frame(frame)) {
      this.sends.delete(requestId);
      return null;
    }
    return { chat, stored };
  }

  stop(chatId: string): boolean {
    return this.frame({ type: 'chat.stop', chatId, requestId: newRequestId() });
  }

  /** Allows or denies a tool call waiting for the person; `remember` allows the tool for the rest of the chat. */
  approveTool(chatId: string, toolCallId: string, decision: 'allow' | 'deny', remember = false): boolean {
    return this.frame({
      type: 'tool.approve',
      chatId,
      toolCallId,
      decision,
      ...(remember ? { remember: 'chat' as const } : {}),
      requestId: newRequestId(),
    });
  }

  regenerate(chatId: string, messageId: string): boolean {
    return this.frame({ type: 'chat.regenerate', chatId, messageId, requestId: newRequestId() });
  }

  edit(chatId: string, messageId: string, content: string, attachments?: string[]): boolean {
    return this.frame({
      type: 'chat.edit',
      requestId: newRequestId(),
      chatId,
      messageId,
      content,
      ...(attachments ? { attachments } : {}),
    });
  }

  /** A send's first answer decides it: its user message (stored) or an error (refused). */
  private settleSend(requestId: string | undefined, error: RequestError | null): void {
    const send = requestId ? this.sends.get(requestId) : undefined;
    if (!send || !requestId) return;
    this.sends.delete(requestId);
    if (error) {
      send.chat?.reject(error);
      send.stored.reject(error);
    } else send.stored.resolve();
  }

  private onFrame(frame: ServerFrame): void {
    if (frame.type === 'message.delta') {
      this.batcher.push({ chatId: frame.chatId, messageId: frame.messageId, text: frame.delta });
      return;
    }
    // Everything else lands after the deltas received before it.
    this.batcher.flush();
    switch (frame.type) {
      case 'chat.created': {
        const send = frame.requestId ? this.sends.get(frame.requestId) : undefined;
        if (send?.chat) {
          this.store.dispatch({ type: 'track-new', chatId: frame.chat.chatId });
          send.chat.resolve(frame.chat);
          delete send.chat;
        }
        this.listEvents?.chatCreated(frame.chat);
        return;
      }
      case 'chat.updated':
        this.listEvents?.chatUpdated(frame.chat);
        return;
      case 'message.created':
        if (frame.message.role === 'user') {
          this.listEvents?.activity(frame.chatId);
          this.settleSend(frame.requestId, null);
        }
        break;
      case 'error':
        if (frame.code === 'BUDGET_EXCEEDED') this.listEvents?.usageChanged();
        this.settleSend(frame.requestId, requestErrorOf(frame));
        break;
      case 'chat.subscribed': {
        // Answers we think are generating but the server no longer is: they ended while we were away.
        const live = new Set(frame.streaming);
        const thread = this.store.getState()[frame.chatId];
        if (streamingIds(thread).some((id) => !live.has(id))) {
          for (const listener of this.staleListeners) listener(frame.chatId);
        }
        return;
      }
      case 'message.done': {
        this.listEvents?.usageChanged();
        // An answer loaded mid-stream and never brought up to date by a snapshot (it ended between
        // the page's load and the subscription): what is shown lacks its end, which is stored.
        const behind = this.store.getState()[frame.chatId]?.unsynced[frame.messageId] === true;
        this.store.dispatch({ type: 'frame', frame });
        if (behind) for (const listener of this.staleListeners) listener(frame.chatId);
        return;
      }
      default:
        break;
    }
    this.store.dispatch({ type: 'frame', frame });
  }
}

let controller: AgentsController | null = null;

/** The tab's controller, made on first use; `stopAgents()` closes it on sign-out. */
export function agentsController(create: () => AgentsController): AgentsController {
  controller ??= create();
  return controller;
}

export function stopAgents(): void {
  controller?.socket.stop();
  controller = null;
}

/** Errors of a request that created no chat, e.g. NO_PROVIDER on the first message. */
export type { RequestError } from './chatStore.ts';
