import type {
  ErrorFrame,
  Message,
  MessagePart,
  PiiKind,
  ServerFrame,
  ToolCallFrame,
  ToolPart,
} from '@assistente/contracts';
import type { MessagesById } from './thread.ts';

/**
 * A refused request, as the `error` frame said it; `resetsAt` with BUDGET_EXCEEDED, `kinds` (what
 * the organisation's filter found) with PII_BLOCKED.
 */
export type RequestError = { code: string; message: string; resetsAt?: string; kinds?: PiiKind[] };

/** What the person is told of an `error` frame. */
export const requestErrorOf = (frame: ErrorFrame): RequestError => ({
  code: frame.code,
  message: frame.message,
  ...(frame.resetsAt ? { resetsAt: frame.resetsAt } : {}),
  ...(frame.kinds ? { kinds: frame.kinds } : {}),
});

/** What the client knows of one open chat. Objects are replaced, never mutated (memoised rendering). */
export interface ThreadState extends MessagesById {
  chatId: string;
  /** The newest page has arrived (or the chat was made here, so it starts empty). */
  loaded: boolean;
  /** `before` of the next older page; null when the oldest message is loaded. */
  olderCursor: string | null;
  /**
   * Answers read from the REST list while still generating: their text may lag behind, so their
   * deltas wait for the `message.snapshot` that `chat.subscribe` brings.
   */
  unsynced: Readonly<Record<string, true>>;
  /** Error code of answers that ended in `error` here (translated texts), by message id. */
  errorCodes: Readonly<Record<string, string>>;
  /** The last `error` frame about this chat, shown above the composer until dismissed. */
  lastError: RequestError | null;
}

export interface Delta {
  chatId: string;
  messageId: string;
  text: string;
}

export type ChatAction =
  /** A page of messages from the REST list; `older` pages go before the ones loaded. */
  | { type: 'page'; chatId: string; messages: Message[]; cursor: string | null; older: boolean }
  | { type: 'frame'; frame: ServerFrame }
  /** Deltas batched per animation frame. */
  | { type: 'deltas'; deltas: Delta[] }
  /** The user picked another branch at a fork. */
  | { type: 'select'; chatId: string; parentKey: string; childId: string }
  | { type: 'dismiss-error'; chatId: string }
  /** Starts tracking a chat made here: it has no history to load. */
  | { type: 'track-new'; chatId: string }
  | { type: 'forget'; chatId: string };

export type ChatsState = Readonly<Record<string, ThreadState>>;

function emptyThread(chatId: string): ThreadState {
  return {
    chatId,
    byId: {},
    ids: [],
    selection: {},
    loaded: false,
    olderCursor: null,
    unsynced: {},
    errorCodes: {},
    lastError: null,
  };
}

function compare(a: Message, b: Message): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0;
}

function without<T>(record: Readonly<Record<string, T>>, key: string): Readonly<Record<string, T>> {
  if (!(key in record)) return record;
  const { [key]: _gone, ...rest } = record;
  return rest;
}

/** Adds or replaces messages, keeping `ids` in creation order. */
function upsert(thread: ThreadState, messages: Message[]): Pick<ThreadState, 'byId' | 'ids'> {
  if (messages.length === 0) return thread;
  const byId: Record<string, Message> = { ...thread.byId };
  let added = false;
  for (const message of messages) {
    if (!byId[message.messageId]) added = true;
    byId[message.messageId] = message;
  }
  if (!added) return { byId, ids: thread.ids };
  const ids = Object.values(byId)
    .sort(compare)
    .map((m) => m.messageId);
  return { byId, ids };
}

function applyPage(thread: ThreadState, action: Extract<ChatAction, { type: 'page' }>): ThreadState {
  const incoming: Message[] = [];
  let unsynced = thread.unsynced;
  for (const message of action.messages) {
    const known = thread.byId[message.messageId];
    if (
      known &&
      known.status === 'streaming' &&
      message.status === 'streaming' &&
      !unsynced[known.messageId]
    ) {
      // Live deltas are ahead of what the server had flushed.
      continue;
    }
    if (message.status === 'streaming' && !known) unsynced = { ...unsynced, [message.messageId]: true };
    if (message.status !== 'streaming') unsynced = without(unsynced, message.messageId);
    incoming.push(message);
  }
  const merged = upsert(thread, incoming);
  const olderCursor = action.older || !thread.loaded ? action.cursor : thread.olderCursor;
  return { ...thread, ...merged, unsynced, loaded: true, olderCursor };
}

function updateMessage(
  thread: ThreadState,
  messageId: string,
  change: (message: Message) => Message,
): ThreadState {
  const message = thread.byId[messageId];
  if (!message) return thread;
  return { ...thread, byId: { ...thread.byId, [messageId]: change(message) } };
}

/**
 * The model called a tool: the text it wrote before the call becomes a part, then the call. A call
 * already known (a snapshot brought it) is updated in place rather than added twice.
 */
function addToolCall(message: Message, frame: ToolCallFrame): Message {
  const parts: MessagePart[] = message.parts ?? [];
  const status: ToolPart['status'] = frame.needsApproval ? 'awaiting_approval' : 'running';
  if (parts.some((p) => p.type === 'tool' && p.toolCallId === frame.toolCallId)) {
    return {
      ...message,
      parts: parts.map((p) =>
        p.type === 'tool' && p.toolCallId === frame.toolCallId ? { ...p, status } : p,
      ),
    };
  }
  const call: ToolPart = {
    type: 'tool',
    toolCallId: frame.toolCallId,
    tool: frame.tool,
    title: frame.title,
    input: frame.input,
    status,
  };
  const before: MessagePart[] = frame.textBefore ? [{ type: 'text', text: frame.textBefore }] : [];
  return { ...message, parts: [...parts, ...before, call] };
}

function applyFrame(state: ChatsState, frame: ServerFrame): ChatsState {
  switch (frame.type) {
    case 'message.created': {
      const thread = state[frame.chatId];
      if (!thread) return state;
      // A new message (send, edit, regenerate) is the newest: showing the default branch shows it.
      return {
        ...state,
        [frame.chatId]: { ...thread, ...upsert(thread, [frame.message]), selection: {}, lastError: null },
      };
    }
    case 'message.snapshot': {
      const thread = state[frame.chatId];
      if (!thread) return state;
      const next = { ...thread, ...upsert(thread, [frame.message]) };
      return {
        ...state,
        [frame.chatId]: { ...next, unsynced: without(thread.unsynced, frame.message.messageId) },
      };
    }
    case 'message.delta':
      return applyDeltas(state, [{ chatId: frame.chatId, messageId: frame.messageId, text: frame.delta }]);
    case 'message.done': {
      const thread = state[frame.chatId];
      if (!thread?.byId[frame.messageId]) return state;
      const updated = updateMessage(thread, frame.messageId, (m) => {
        const next: Message = { ...m, status: frame.status };
        if (frame.usage) next.usage = frame.usage;
        if (frame.error) next.error = frame.error.message;
        if (frame.error?.reason) next.errorReason = frame.error.reason;
        if (frame.citations) next.citations = frame.citations;
        if (frame.attachmentReadings) next.attachmentReadings = frame.attachmentReadings;
        if (frame.usedMemory) next.usedMemory = true;
        return next;
      });
      return {
        ...state,
        [frame.chatId]: {
          ...updated,
          unsynced: without(thread.unsynced, frame.messageId),
          errorCodes: frame.error
            ? { ...thread.errorCodes, [frame.messageId]: frame.error.code }
            : thread.errorCodes,
        },
      };
    }
    case 'tool.call': {
      const thread = state[frame.chatId];
      if (!thread?.byId[frame.messageId]) return state;
      return {
        ...state,
        [frame.chatId]: updateMessage(thread, frame.messageId, (m) => addToolCall(m, frame)),
      };
    }
    case 'tool.result': {
      const thread = state[frame.chatId];
      if (!thread?.byId[frame.messageId]) return state;
      const updated = updateMessage(thread, frame.messageId, (m) => ({
        ...m,
        parts: m.parts?.map((p) =>
          p.type === 'tool' && p.toolCallId === frame.toolCallId
            ? {
                ...p,
                status: frame.status,
                ...(frame.output !== undefined ? { output: frame.output } : {}),
                ...(frame.durationMs !== undefined ? { durationMs: frame.durationMs } : {}),
                ...(frame.files !== undefined ? { files: frame.files } : {}),
              }
            : p,
        ),
      }));
      return { ...state, [frame.chatId]: updated };
    }
    case 'error': {
      const thread = frame.chatId ? state[frame.chatId] : undefined;
      if (!thread) return state;
      return {
        ...state,
        [thread.chatId]: {
          ...thread,
          lastError: requestErrorOf(frame),
        },
      };
    }
    default:
      return state;
  }
}

function applyDeltas(state: ChatsState, deltas: Delta[]): ChatsState {
  let next: Record<string, ThreadState> | null = null;
  const texts = new Map<string, Map<string, string>>();
  for (const delta of deltas) {
    let perChat = texts.get(delta.chatId);
    if (!perChat) {
      perChat = new Map();
      texts.set(delta.chatId, perChat);
    }
    perChat.set(delta.messageId, (perChat.get(delta.messageId) ?? '') + delta.text);
  }
  for (const [chatId, perChat] of texts) {
    const thread = state[chatId];
    if (!thread) continue;
    let byId: Record<string, Message> | null = null;
    for (const [messageId, text] of perChat) {
      const message = thread.byId[messageId];
      // Unknown (its creation was missed: a resubscribe repairs it), finished or awaiting a snapshot.
      if (message?.status !== 'streaming' || thread.unsynced[messageId]) continue;
      byId ??= { ...thread.byId };
      byId[messageId] = { ...message, content: message.content + text };
    }
    if (!byId) continue;
    next ??= { ...state };
    next[chatId] = { ...thread, byId };
  }
  return next ?? state;
}

/** The chats' message state: a pure reducer, so the streaming rules are unit-tested without a socket. */
export function chatReducer(state: ChatsState, action: ChatAction): ChatsState {
  switch (action.type) {
    case 'page': {
      const thread = state[action.chatId] ?? emptyThread(action.chatId);
      return { ...state, [action.chatId]: applyPage(thread, action) };
    }
    case 'frame':
      return applyFrame(state, action.frame);
    case 'deltas':
      return applyDeltas(state, action.deltas);
    case 'select': {
      const thread = state[action.chatId];
      if (!thread) return state;
      const selection = { ...thread.selection, [action.parentKey]: action.childId };
      return { ...state, [action.chatId]: { ...thread, selection } };
    }
    case 'dismiss-error': {
      const thread = state[action.chatId];
      if (!thread?.lastError) return state;
      return { ...state, [action.chatId]: { ...thread, lastError: null } };
    }
    case 'track-new': {
      if (state[action.chatId]) return state;
      return { ...state, [action.chatId]: { ...emptyThread(action.chatId), loaded: true } };
    }
    case 'forget': {
      if (!state[action.chatId]) return state;
      const { [action.chatId]: _gone, ...rest } = state;
      return rest;
    }
    default:
      return state;
  }
}

/** Answers of a thread still generating. */
export function streamingIds(thread: ThreadState | undefined): string[] {
  if (!thread) return [];
  return thread.ids.filter((id) => thread.byId[id]?.status === 'streaming');
}

export interface ChatStore {
  getState(): ChatsState;
  dispatch(action: ChatAction): void;
  subscribe(listener: () => void): () => void;
}

export function createChatStore(initial: ChatsState = {}): ChatStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = chatReducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Collects deltas and hands them over once per animation frame, so a fast stream costs one
 * render per frame however many tokens arrive. `flush()` delivers at once (before any other
 * frame, to keep the order).
 */
export function createDeltaBatcher(
  deliver: (deltas: Delta[]) => void,
  schedule: (fn: () => void) => unknown = (fn) =>
    typeof requestAnimationFrame === 'function' ? requestAnimationFrame(fn) : setTimeout(fn, 16),
) {
  let pending: Delta[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    deliver(batch);
  };
  return {
    push(delta: Delta) {
      pending.push(delta);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}
